#!/usr/bin/env bash
# Installs the Debian 12 packages weightspace builds and tests with (as root, or with sudo).
# Skips apt-get entirely when everything is already there.
set -euo pipefail

packages=(
  cmake ninja-build g++ pkg-config
  libtbb-dev libeigen3-dev nlohmann-json3-dev libspdlog-dev libcli11-dev
  libgtest-dev libgmock-dev libbenchmark-dev nettle-dev libutf8proc-dev libsqlite3-dev libtomlplusplus-dev
  libcpp-httplib-dev  # weightspace serve's HTTP (docs/serving.md)
  python3 python3-numpy python3-dev pybind11-dev python3-pytest python3-pip python3-venv python3-setuptools help2man dpkg-dev
)
if [[ "${WEIGHTSPACE_FUZZ:-OFF}" == "ON" ]]; then packages+=(clang libclang-rt-14-dev); fi
# tests/cluster: a local Slurm (slurm_array) and the Kubernetes manifest's YAML (k8s_manifest).
if [[ "${WEIGHTSPACE_CLUSTER_TESTS:-ON}" == "ON" ]]; then packages+=(slurm-wlm munge python3-yaml); fi
# The HTML report inlines Chart.js (npm ci at build time); its test opens it in headless Chromium.
# NodeSource's nodejs carries npm and conflicts with Debian's npm package: only add npm when missing.
packages+=(nodejs chromium)
if ! command -v npm >/dev/null; then packages+=(npm); fi

missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if ((${#missing[@]} == 0)); then exit 0; fi

sudo=""
if [[ $(id -u) -ne 0 ]]; then sudo="sudo"; fi
echo "installing: ${missing[*]}" >&2
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
