#!/usr/bin/env bash
# The C API's suite (test_c_api) under oclgrind: every kernel the library enqueues, with offsets,
# leading dimensions, K = 0 and padding copies, checked for out-of-bounds accesses, data races and
# API misuse. oclgrind reports on stderr and still exits 0, so any line there fails the test.
# Without --uninitialized: the library builds with the optimiser on, whose `freeze` instructions
# oclgrind 21.10's uninitialised-value checker stops at (test_oclgrind.cpp builds with
# -cl-opt-disable for it). FP32 only: oclgrind's device has 32 KiB of local memory, less than
# best's FP64 default tiles need. The threads test is left out: oclgrind runs one kernel at a
# time per process and asserts when two threads launch at once.
#   c_api_oclgrind.sh OCLGRIND TEST_C_API
set -uo pipefail
oclgrind=$1
suite=$2
err=$(mktemp)
trap 'rm -f "$err"' EXIT
CLGEMM_TEST_FP32_ONLY=1 "$oclgrind" --data-races --check-api "$suite" \
  --gtest_filter='CApi.*:-CApi.ConcurrentCallsFromSeveralThreads' 2>"$err"
status=$?
if [ -s "$err" ]; then
  echo "c_api_oclgrind.sh: oclgrind reported:" >&2
  cat "$err" >&2
  exit 1
fi
exit $status
