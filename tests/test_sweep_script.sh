#!/usr/bin/env bash
# tools/sweep.sh end to end on this machine's OpenCL device (pocl in CI), at sizes that take
# seconds: it must measure the peak into the given store, write clgemm's CSV with every row
# verified, and draw the three plots. Then its refusals.
#   tests/test_sweep_script.sh CLGEMM_BINARY
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
clgemm=${1:?usage: test_sweep_script.sh CLGEMM_BINARY}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() {
  echo "FAIL: $*" >&2
  exit 1
}

"$root/tools/sweep.sh" --clgemm "$clgemm" --sizes 16,40x24x33 --reps 1 --store "$work/store" \
  --out-dir "$work/out" || fail "sweep.sh exited with $?"
[ "$(ls "$work/store/peaks" | wc -l)" -eq 1 ] || fail "no peak stored in $work/store/peaks"
for f in sweep.csv gflops.png ladder.png roofline.png; do
  [ -s "$work/out/$f" ] || fail "sweep.sh did not write $f"
done
for f in gflops.png ladder.png roofline.png; do
  [ "$(head -c 8 "$work/out/$f" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] ||
    fail "$f is not a PNG"
done
csv=$work/out/sweep.csv
# One column of the CSV by its header name, read as CSV (a device name may hold a quoted comma).
column() {
  python3 -c 'import csv, sys
for row in csv.DictReader(open(sys.argv[1], newline="")): print(row[sys.argv[2]])' "$csv" "$1"
}
variants=$("$clgemm" --explain --kernel cl | wc -l)
rows=$(($(wc -l <"$csv") - 1))
# Every OpenCL kernel plus CLBlast and OpenBLAS, at both sizes; every kernel verified, and the
# baselines too unless this build has no library for them ("skipped").
[ "$rows" -eq $((2 * (variants + 2))) ] || fail "expected $((2 * (variants + 2))) rows, got $rows"
# Kernels this device cannot run (the tensor-core ones off NVIDIA's GPUs) are skipped, naming
# what they need; every other kernel must have run and verified.
unsupported=$(paste -d' ' <(column variant) <(column status) |
  awk '$2 == "skipped" && $1 != "clblast" && $1 != "openblas" { print $1 }' | sort -u)
for k in $unsupported; do
  grep -q "needs an NVIDIA GPU" <<<"$(grep "^$k," "$csv")" ||
    fail "$k skipped without saying what it needs"
done
runnable=$((variants - $(echo "$unsupported" | grep -c . || true)))
ok=$(column status | grep -c '^ok$' || true)
[ "$ok" -ge $((2 * runnable)) ] || fail "only $ok rows ok: $(column status | sort -u | tr '\n' ' ')"
[ -z "$(column status | grep -v -e '^ok$' -e '^skipped$')" ] || fail "a row failed or errored"
[ "$(column m | sort -un | tr '\n' ' ')" = "16 40 " ] || fail "sizes in the CSV: $(column m | sort -un)"
[ -n "$(column pct_peak | head -1)" ] || fail "no pct_peak although the peak was measured"

# Refusals: exit 2 with a message naming the culprit, nothing written.
if out=$("$root/tools/sweep.sh" --clgemm "$clgemm" --bogus 2>&1); then fail "--bogus accepted"; fi
[[ $out == *"unknown option '--bogus'"* ]] || fail "--bogus: $out"
status=0
out=$("$root/tools/sweep.sh" --clgemm "$clgemm" --sizes 0 --no-peak --out-dir "$work/bad" 2>&1) ||
  status=$?
[ "$status" -eq 2 ] || fail "--sizes 0 exited $status: $out"
[[ $out == *"--sizes item '0'"* ]] || fail "--sizes 0: $out"
[ ! -e "$work/bad" ] || fail "--sizes 0 left $work/bad behind"
echo "sweep.sh: ok"
