#!/usr/bin/env bash
# The BLAS shim's environment, exports and records (ctest: blas_shim_env; label blas_shim):
#   blas_shim_env.sh SHIM CLIENT CLGEMM
# CLIENT (blas_shim_client.cpp) checks its own results in every run; this script judges where
# the calls went from the shim's count lines (CLGEMM_BLAS_VERBOSE=1) and what it printed.
set -euo pipefail
shim=$1 client=$2 clgemm=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export CLGEMM_DATA=none CLGEMM_STORE=$tmp/store CLGEMM_BLAS_VERBOSE=1
unset CLGEMM_DEVICE CLGEMM_BLAS_THRESHOLD
# Debian 12's OpenBLAS (0.3.21) with its AVX-512 kernels (SkylakeX: chosen on Xeons and on AMD
# EPYCs with AVX-512) reads C where beta = 0 in its small GEMMs of a transposed A: NaN in C stays
# NaN, against BLAS's rule that beta = 0 does not read C (4 of the client's checks, sNT/sTT/dNT/
# dTT 20x30x10, here without the shim too). The client checks the shim, not OpenBLAS's kernels:
# it runs OpenBLAS's AVX2 kernels wherever the CPU has AVX2, so that an Intel Xeon and an AMD
# EPYC give the same results.
if grep -qw avx2 /proc/cpuinfo; then export OPENBLAS_CORETYPE=Haswell; fi
fail() { echo "blas_shim_env.sh: FAIL: $*"; exit 1; }

# run NAME [VAR=VALUE...]: the client under the shim, its output in $tmp/NAME.
run() {
  local name=$1
  shift
  echo "== $name: $*"
  env "$@" LD_PRELOAD="$shim" "$client" > "$tmp/$name" 2>&1 || { cat "$tmp/$name"; fail "$name: the client failed"; }
  cat "$tmp/$name"
}
# count NAME ROUTINE FIELD: device (calls on the device) or system (on the system BLAS).
count() {
  local line
  line=$(grep "^clgemm_blas: $2: " "$tmp/$1") || fail "$1: no count line for $2"
  case $3 in
    device) echo "$line" | sed -E 's/^[^:]+: [a-z_]+: [0-9]+ calls?: ([0-9]+) on .*/\1/' ;;
    system) echo "$line" | sed -E 's/.*, ([0-9]+) on the system BLAS.*/\1/' ;;
  esac
}

echo "== exports"
exports=$(nm -D --defined-only "$shim" | awk '$2 == "T" {print $3}' | sort | tr '\n' ' ')
[ "$exports" = "cblas_dgemm cblas_sgemm dgemm_ sgemm_ " ] || fail "the shim exports: $exports"
echo "$exports"

# Without the shim: the client's checks hold for the system BLAS itself.
echo "== without the shim"
"$client"

run all_on_device CLGEMM_BLAS_THRESHOLD=0
for r in sgemm_ dgemm_ cblas_sgemm cblas_dgemm; do
  [ "$(count all_on_device $r device)" -gt 0 ] || fail "all_on_device: no $r call on the device"
  [ "$(count all_on_device $r system)" = 0 ] || fail "all_on_device: $r calls on the system BLAS"
done
grep -q "clgemm_blas: .*warning" "$tmp/all_on_device" && fail "all_on_device: a warning"
grep -q "^clgemm_blas: sgemm_: .*, [1-9][0-9]* quick returns\?," "$tmp/all_on_device" ||
  fail "all_on_device: alpha = 0, beta = 1 was not a quick return"

# A device that does not exist: the error once, every call on the system BLAS, results right.
run bad_device CLGEMM_DEVICE=9:9 CLGEMM_BLAS_THRESHOLD=0
[ "$(grep -c '^clgemm_blas: error: CLGEMM_DEVICE=9:9' "$tmp/bad_device")" = 1 ] ||
  fail "bad_device: not one 'clgemm_blas: error: CLGEMM_DEVICE=9:9' line"
grep -q "sgemm_: .* 0 on the device (none), .*without a device" "$tmp/bad_device" ||
  fail "bad_device: sgemm_ calls not all on the system BLAS"

run bad_device_form CLGEMM_DEVICE=gpu0 CLGEMM_BLAS_THRESHOLD=0
grep -q "^clgemm_blas: error: CLGEMM_DEVICE=gpu0: 'gpu0' is not PLATFORM:DEVICE" \
  "$tmp/bad_device_form" || fail "bad_device_form: no error naming the value"

# A threshold that is not a number: one warning naming it, then as without it: on pocl's CPU
# device (no record in the empty store) every call stays on the system BLAS.
run bad_threshold CLGEMM_BLAS_THRESHOLD=1e6
[ "$(grep -c "CLGEMM_BLAS_THRESHOLD='1e6'" "$tmp/bad_threshold")" = 1 ] ||
  fail "bad_threshold: not one warning naming the value"

run default
# A here-string, not a pipe: grep -q exits at the first match, and under pipefail the writer's
# SIGPIPE would fail the test's condition.
if grep -q "^ *type GPU," <<<"$("$clgemm" --list)"; then
  echo "(a GPU: the default threshold is 256^3, not judged here)"
else
  [ "$(count default sgemm_ device)" = 0 ] || fail "default: a CPU device took sgemm_ calls"
  grep -q "sgemm_: .*below the threshold" "$tmp/default" || fail "default: no 'below the threshold'"
fi

# clgemm blas-threshold at two small sizes: a record per precision in the store, which the shim
# reads; a record edited to 20000 (= m*n*k) splits the client's calls between both sides.
echo "== clgemm blas-threshold"
"$clgemm" blas-threshold --sizes 16,24 --reps 2 --warmup 1 | tee "$tmp/threshold.txt"
grep -q "^threshold: " "$tmp/threshold.txt" || fail "blas-threshold printed no threshold"
records=("$CLGEMM_STORE"/blas/*-fp32.json)
[ -f "${records[0]}" ] || fail "blas-threshold stored no fp32 record"
for key in device driver platform precision threshold measured date command system_blas; do
  grep -q "\"$key\"" "${records[0]}" || fail "the record has no $key"
done
grep -q '"command": "clgemm blas-threshold --sizes 16,24' "${records[0]}" ||
  fail "the record does not hold the command"
sed -i -E 's/"threshold": (null|[0-9]+)/"threshold": 20000/' "$CLGEMM_STORE"/blas/*.json
run from_record
for r in sgemm_ cblas_dgemm; do
  [ "$(count from_record $r device)" -gt 0 ] || fail "from_record: no $r call on the device"
  [ "$(count from_record $r system)" -gt 0 ] || fail "from_record: no $r call on the system BLAS"
done
"$clgemm" blas-threshold --sizes 16x16x8 > "$tmp/bad" 2>&1 && fail "a non-square size was taken"
grep -q "square" "$tmp/bad" || fail "no message about square sizes: $(cat "$tmp/bad")"
"$clgemm" blas-threshold --alpha 2 > "$tmp/bad" 2>&1 && fail "--alpha was taken"
grep -q "does not apply to clgemm blas-threshold" "$tmp/bad" || fail "$(cat "$tmp/bad")"
echo "blas_shim_env.sh: passed"
