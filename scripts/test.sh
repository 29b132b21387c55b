#!/usr/bin/env bash
# Installs what is missing (Debian 12), builds, and runs every test: the Release suite, then
# the same suite under AddressSanitizer + UndefinedBehaviorSanitizer, then the exact core's
# tests built for a CPU without AVX2 (the scalar kernels and portable fallbacks must give the
# same bits), then the fuzz smoke pass. The browser and Slurm tests (the report's pages, a local
# Slurm cluster) run in the Release stage only: they check the CLI's outputs, which no build
# flag changes; so does the exhaustive tanh check (label exhaustive), a check of values that
# the Release and portable stages make. The sanitized stage builds the command line's own code
# at -O0 (apps/CMakeLists.txt) and the engine and tests as configured. Each stage prints its time.
# Set WEIGHTSPACE_SKIP_ASAN=1 or WEIGHTSPACE_SKIP_PORTABLE=1 to skip those
# stages locally.
set -euo pipefail
cd "$(dirname "$0")/.."

started=$SECONDS
stage_started=$SECONDS
stage() {
  echo "== ($((SECONDS - stage_started)) s; $((SECONDS - started)) s in all) $1"
  stage_started=$SECONDS
}
WEIGHTSPACE_FUZZ=ON scripts/install-deps.sh
jobs=$(nproc)

stage "Release build and tests"
cmake --preset release >/dev/null
cmake --build --preset release -j "$jobs"
ctest --preset release -j "$jobs" -LE long

if [[ "${WEIGHTSPACE_SKIP_ASAN:-0}" != "1" ]]; then
  stage "AddressSanitizer + UndefinedBehaviorSanitizer build and tests"
  cmake --preset asan >/dev/null
  cmake --build --preset asan -j "$jobs"
  ctest --preset asan -j "$jobs" -LE "long|browser|slurm|exhaustive"
fi

if [[ "${WEIGHTSPACE_SKIP_PORTABLE:-0}" != "1" ]]; then
  stage "Portable build (no AVX2) and the exact core's tests"
  cmake --preset portable >/dev/null
  cmake --build --preset portable -j "$jobs" --target weightspace_core_tests
  ctest --preset portable -j "$jobs" -L "core|exhaustive" -LE long
fi

stage "Fuzz smoke pass (clang libFuzzer, ASan+UBSan) over the checked-in corpus"
cmake --preset fuzz >/dev/null
cmake --build --preset fuzz -j "$jobs"
ctest --preset fuzz
stage "done"
