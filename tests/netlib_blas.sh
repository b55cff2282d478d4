#!/usr/bin/env bash
# netlib's BLAS test programs through the shim (ctest: netlib_blas_xblat3s, ...; label blas_shim):
#   netlib_blas.sh SHIM PROGRAM INPUT ROUTINE [LIBDIR]
# runs PROGRAM < INPUT with LD_PRELOAD=SHIM, every call on the device (CLGEMM_BLAS_THRESHOLD=0),
# and fails unless ROUTINE's lines say it passed the error-exit tests and every computational test
# ("PASSED THE ... COMPUTATIONAL TESTS ( N CALLS)", one line per layout for CBLAS), no line says
# FAIL, and the shim's count line shows 0 calls on the system BLAS and as many non-rejected calls
# as the program says it made (the sum of the N). LIBDIR goes first on LD_LIBRARY_PATH: netlib's
# CBLAS tests need netlib's libblas.so.3 (its RowMajorStrg), which OpenBLAS's does not have.
set -euo pipefail
shim=$1 program=$2 input=$3 routine=$4 libdir=${5:-}
[ -x "$program" ] || { echo "netlib_blas.sh: $program not found (Debian: libblas-test)"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp "$(dirname "$program")/$input" "$tmp/"
cd "$tmp"
set +e
LD_LIBRARY_PATH=${libdir}${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} LD_PRELOAD=$shim \
  CLGEMM_BLAS_THRESHOLD=0 CLGEMM_BLAS_VERBOSE=1 CLGEMM_DATA=none \
  "$program" < "$input" > stdout.txt 2> stderr.txt
status=$?
set -e
# The level-3 testers name their summary file on the input's first line (sblat3.out, unit 6); the
# CBLAS testers write it to stdout.
summary=stdout.txt
first=$(head -n1 "$input" | sed -n "s/^'\([^']*\)'.*/\1/p")
[ -n "$first" ] && [ -f "$first" ] && summary=$first
echo "== $(basename "$program") < $input (exit $status), through $(basename "$shim"):"
grep -v '^ *$' "$summary" || true
cat stderr.txt
fail() { echo "netlib_blas.sh: FAIL: $*"; exit 1; }
[ "$status" -eq 0 ] || fail "$(basename "$program") exited with $status"
grep -q "FAIL" "$summary" stderr.txt && fail "a line says FAIL"
grep -Eq "^ *$routine +PASSED THE TESTS OF ERROR-EXITS" "$summary" ||
  fail "$routine did not pass the error-exit tests"
calls=$(sed -n -E "s/^ *$routine +PASSED THE .*COMPUTATIONAL TESTS \( *([0-9]+) CALLS\).*/\1/p" "$summary")
[ -n "$calls" ] || fail "$routine did not pass the computational tests"
expected=0
for n in $calls; do expected=$((expected + n)); done
lower=$(echo "$routine" | tr 'A-Z' 'a-z')
[ "$lower" = "${lower#cblas_}" ] && lower=${lower}_
line=$(grep "^clgemm_blas: $lower: " stderr.txt) || fail "no count line for $lower from the shim"
shim_calls=$(echo "$line" | sed -E 's/^clgemm_blas: [a-z_]+: ([0-9]+) calls?: .*/\1/')
device=$(echo "$line" | sed -E 's/^[^:]+: [a-z_]+: [0-9]+ calls?: ([0-9]+) on .*/\1/')
system=$(echo "$line" | sed -E 's/.*, ([0-9]+) on the system BLAS.*/\1/')
[ "$system" = 0 ] || fail "$system calls went to the system BLAS"
[ "$shim_calls" = "$expected" ] ||
  fail "the shim counted $shim_calls non-rejected calls, the program made $expected"
[ "$device" -gt 0 ] || fail "no call ran on the device"
echo "netlib_blas.sh: $routine passed: $expected calls, $device on the device"
