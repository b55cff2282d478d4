#!/usr/bin/env bash
# Build clgemm (Release) if needed and run it with the given arguments:
#   tools/run.sh [clgemm options]      e.g. tools/run.sh --list, tools/run.sh --size 1024
# Build output goes to stderr so that `tools/run.sh --format csv > out.csv` keeps the CSV clean.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${CLGEMM_BUILD_DIR:-$root/build}

"$root/tools/setup.sh" >&2
{
  cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build "$build" --target clgemm -j"$(nproc)" >/dev/null
} >&2 || { echo "tools/run.sh: build failed; run: cmake --build $build" >&2; exit 2; }
exec "$build/clgemm" "$@"
