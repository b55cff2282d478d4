#!/usr/bin/env bash
# Install what is missing, build clgemm and its tests, and run the whole suite on the machine's
# OpenCL device (pocl's CPU device where there is no GPU). Then the same suite on a build without
# the optional baselines (CLBlast, OpenBLAS), whose rows must say "not built" instead of failing,
# on a build with AddressSanitizer and UndefinedBehaviorSanitizer (CLGEMM_SANITIZE), and last the
# libFuzzer targets of the -D, --sizes and .npy parsers, built with clang (CLGEMM_FUZZ), each run
# for 45 seconds.
# Extra arguments go to ctest, e.g.   tools/test.sh -R Npy
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${CLGEMM_BUILD_DIR:-$root/build}
jobs=$(nproc)

# Each stage's wall time is printed at its end and all of them once more at the end of the script,
# so a slow stage shows in CI's log (CI allows 90 minutes; README's Tests section has the total).
stage_name=""
stage_start=$SECONDS
stage_times=()
minutes() { printf '%d min %02d s' $(($1 / 60)) $(($1 % 60)); }
end_stage() {  # $1: how the stage ended, "done" or "FAILED"
  [ -n "$stage_name" ] || return 0
  local took=$((SECONDS - stage_start))
  stage_times+=("$(printf '%-40s %s' "$stage_name" "$(minutes "$took")") ${1/done/}")
  echo "== $stage_name: $1 in $(minutes "$took")"
  stage_name=""
}
stage() {
  end_stage done
  stage_name=$1
  stage_start=$SECONDS
  echo "== $1"
}
summary() {
  local status=$?
  end_stage "$([ "$status" -eq 0 ] && echo done || echo FAILED)"
  echo "== stage times"
  printf '   %s\n' "${stage_times[@]}"
  echo "   total: $(minutes "$SECONDS")"
}
trap summary EXIT

stage "setup (packages)"
"$root/tools/setup.sh"

stage "full: build"
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DCLGEMM_BUILD_TESTS=ON
cmake --build "$build" -j"$jobs"
stage "full: tests"
(cd "$build" && ctest --output-on-failure --timeout 900 "$@")

stage "without CLBlast and OpenBLAS: build"
cmake -S "$root" -B "$build-minimal" -DCMAKE_BUILD_TYPE=Release -DCLGEMM_BUILD_TESTS=ON \
  -DCLGEMM_WITH_CLBLAST=OFF -DCLGEMM_WITH_OPENBLAS=OFF
cmake --build "$build-minimal" -j"$jobs"
stage "without CLBlast and OpenBLAS: tests"
# The kernels are the same in both builds, so the oclgrind suite runs once, above.
(cd "$build-minimal" && ctest --output-on-failure --timeout 900 -LE oclgrind "$@")

stage "ASan + UBSan: build"
cmake -S "$root" -B "$build-sanitize" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCLGEMM_BUILD_TESTS=ON \
  -DCLGEMM_SANITIZE=ON
cmake --build "$build-sanitize" -j"$jobs"
stage "ASan + UBSan: tests"
# oclgrind preloads its own OpenCL runtime, and the BLAS shim's tests preload libclgemm_blas.so,
# neither of which can come before ASan's runtime; those runs are above.
# pocl leaks inside its compiler whenever a kernel is not in its cache (tests/lsan-pocl.supp).
# intercept_tls_get_addr=0: LeakSanitizer's exit-time scan of dynamic TLS otherwise crashes now and
# then ("Tracer caught signal 11", a DTLS range starting at 0x1278) after pocl fails to build a
# kernel: 4 of 150 runs of Tune.CandidatesThatFailToBuildAreInvalidAndTheSearchGoesOn, 0 of 200
# with the option (google/sanitizers#1353 reports the crash). Only dlopen'ed libraries' TLS goes
# unscanned (pocl's, LLVM's); clgemm's own thread_local buffers are static TLS, still scanned.
(cd "$build-sanitize" &&
  LSAN_OPTIONS="suppressions=$root/tests/lsan-pocl.supp:print_suppressions=0:intercept_tls_get_addr=0" \
    ctest --output-on-failure --timeout 900 -LE 'oclgrind|blas_shim' "$@")

stage "libFuzzer: build"
# Only the parsers are built here (CLGEMM_FUZZ configures nothing else), so clang needs neither
# OpenCL nor OpenMP; one fuzzer runs per core, and what they find is saved under
# $build-fuzz/tests/fuzz/<target>.run/artifacts.
CC=clang CXX=clang++ cmake -S "$root" -B "$build-fuzz" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCLGEMM_FUZZ=ON -DCLGEMM_BUILD_TESTS=OFF
cmake --build "$build-fuzz" -j"$jobs"
stage "libFuzzer: fuzzing"
(cd "$build-fuzz" && ctest --output-on-failure -L fuzz -j"$jobs" "$@")
