#!/usr/bin/env bash
# Installs what is missing (Debian 12), builds, and runs every test: the Release suite, then
# the same suite under AddressSanitizer + UndefinedBehaviorSanitizer, then built for a CPU
# without AVX2 (the scalar kernels and portable fallbacks must give the same bits), then the
# fuzz smoke pass. The browser and Slurm tests (the report's pages, a local Slurm cluster) run
# in the Release stage only: they check the CLI's outputs, which no build flag changes.
# Set WEIGHTSPACE_SKIP_ASAN=1 or WEIGHTSPACE_SKIP_PORTABLE=1 to skip those
# stages locally.
set -euo pipefail
cd "$(dirname "$0")/.."

WEIGHTSPACE_FUZZ=ON scripts/install-deps.sh
jobs=$(nproc)

echo "== Release build and tests"
cmake --preset release >/dev/null
cmake --build --preset release -j "$jobs"
ctest --preset release -j "$jobs" -LE long

if [[ "${WEIGHTSPACE_SKIP_ASAN:-0}" != "1" ]]; then
  echo "== AddressSanitizer + UndefinedBehaviorSanitizer build and tests"
  cmake --preset asan >/dev/null
  cmake --build --preset asan -j "$jobs"
  ctest --preset asan -j "$jobs" -LE "long|browser|slurm"
fi

if [[ "${WEIGHTSPACE_SKIP_PORTABLE:-0}" != "1" ]]; then
  echo "== Portable build (no AVX2) and tests"
  cmake --preset portable >/dev/null
  cmake --build --preset portable -j "$jobs"
  ctest --preset portable -j "$jobs" -LE "long|browser|slurm"
fi

echo "== Fuzz smoke pass (clang libFuzzer, ASan+UBSan) over the checked-in corpus"
cmake --preset fuzz >/dev/null
cmake --build --preset fuzz -j "$jobs"
ctest --preset fuzz
