#!/usr/bin/env bash
# Installs the Debian 12 packages weightspace needs (as root, or with sudo), by profile:
#   scripts/install-deps.sh build   what building the binary and the Python module needs
#                                   (scripts/examples.sh: a first command stays quick)
#   scripts/install-deps.sh [test]  that and what the test suites run: Chromium for the
#                                   report's browser tests, Slurm and munge for the cluster
#                                   tests, pytest, the packaging tools, groff for the man page
# Skips apt-get entirely when everything is already there.
set -euo pipefail

profile=${1:-test}
case $profile in
  build | test) ;;
  *) echo "usage: $0 [build|test] (default test)" >&2; exit 2 ;;
esac

# CMake configures the tests and benchmarks by default (GoogleTest, Google Benchmark); the
# man page comes from help2man, the .deb (cpack) needs dpkg-dev; the HTML report inlines
# Chart.js, installed by `npm ci`.
packages=(
  cmake ninja-build g++ pkg-config
  libtbb-dev libeigen3-dev nlohmann-json3-dev libspdlog-dev libcli11-dev
  libgtest-dev libgmock-dev libbenchmark-dev nettle-dev libutf8proc-dev libsqlite3-dev libtomlplusplus-dev
  libcpp-httplib-dev  # weightspace serve's HTTP (docs/serving.md)
  python3 python3-numpy python3-dev pybind11-dev help2man dpkg-dev nodejs
)
# NodeSource's nodejs carries npm and conflicts with Debian's npm package: only add npm when missing.
if ! command -v npm >/dev/null; then packages+=(npm); fi
if [[ $profile == test ]]; then
  # The Python package tests, the man page rendered at 80 columns, the report in a browser.
  packages+=(python3-pytest python3-pip python3-venv python3-setuptools groff-base chromium)
  # tests/cluster: a local Slurm (slurm_array) and the Kubernetes manifest's YAML (k8s_manifest).
  if [[ "${WEIGHTSPACE_CLUSTER_TESTS:-ON}" == "ON" ]]; then packages+=(slurm-wlm munge python3-yaml); fi
  if [[ "${WEIGHTSPACE_FUZZ:-OFF}" == "ON" ]]; then packages+=(clang libclang-rt-14-dev); fi
  # The sweep's [speed] instructions count the workload's instructions under valgrind's callgrind.
  packages+=(valgrind)
fi

missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if ((${#missing[@]} == 0)); then exit 0; fi

sudo=""
if [[ $(id -u) -ne 0 ]]; then sudo="sudo"; fi
echo "installing ($profile): ${missing[*]}" >&2
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
