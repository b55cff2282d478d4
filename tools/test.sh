#!/usr/bin/env bash
# Install what is missing, build clgemm and its tests, and run the whole suite on the machine's
# OpenCL device (pocl's CPU device where there is no GPU). Extra arguments go to ctest, e.g.
#   tools/test.sh -R Npy        tools/test.sh -L oclgrind
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${CLGEMM_BUILD_DIR:-$root/build}

"$root/tools/setup.sh"
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DCLGEMM_BUILD_TESTS=ON
cmake --build "$build" -j"$(nproc)"
cd "$build"
ctest --output-on-failure --timeout 900 "$@"
