#!/usr/bin/env bash
# The standard sweep: every OpenCL kernel of the ladder (the best kernel included) and both
# baselines, CLBlast and OpenBLAS, over a range of sizes on one device, every result verified; then
# the three plots. Writes into data/results/<device>/sweep-<date>/:
#   sweep.csv      clgemm's own --format csv output, untouched
#   gflops.png     GFLOP/s against size, one line per variant, baselines dashed
#   ladder.png     speedup over naive at the largest size
#   roofline.png   every kernel at its arithmetic intensity under the device's roofline
#
#   tools/sweep.sh [--sizes LIST] [--platform N] [--device N] [--reps N] [--store DIR]
#                  [--out-dir DIR] [--no-peak] [--clgemm PATH] [-- more clgemm options]
#
# --sizes defaults to 256:8192:x2 (a GPU's range; on a CPU device through pocl pick smaller ones,
# e.g. 64:512:x2). Unless --no-peak, `clgemm peak` first measures the device and stores its peak,
# which gives the CSV its pct_peak and roofline columns. --clgemm runs that binary instead of
# building one with tools/setup.sh and CMake.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

usage() {
  sed -n '2,18p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2
  exit 2
}
fail() {
  echo "sweep.sh: error: $*" >&2
  exit 2
}
value() { [ $# -ge 2 ] && [ -n "$2" ] || fail "$1 needs a value"; }

sizes=256:8192:x2
out_dir=
clgemm=
measure_peak=1
device_args=()
run_args=()
while [ $# -gt 0 ]; do
  case $1 in
    --sizes) value "$@"; sizes=$2; shift 2 ;;
    --out-dir) value "$@"; out_dir=$2; shift 2 ;;
    --clgemm) value "$@"; clgemm=$2; shift 2 ;;
    --platform | --device | --store) value "$@"; device_args+=("$1" "$2"); shift 2 ;;
    --reps) value "$@"; run_args+=("$1" "$2"); shift 2 ;;
    --no-peak) measure_peak=0; shift ;;
    --) shift; run_args+=("$@"); break ;;
    -h | --help) usage ;;
    *) fail "unknown option '$1' (see tools/sweep.sh --help)" ;;
  esac
done

if [ -z "$clgemm" ]; then
  build=${CLGEMM_BUILD_DIR:-$root/build}
  "$root/tools/setup.sh" >&2
  {
    cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
    cmake --build "$build" --target clgemm -j"$(nproc)" >/dev/null
  } >&2 || fail "build failed; run: cmake --build $build"
  clgemm=$build/clgemm
fi
[ -x "$clgemm" ] || fail "--clgemm '$clgemm' is not an executable"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if [ "$measure_peak" = 1 ]; then
  echo "sweep.sh: measuring the device's peak (clgemm peak)" >&2
  "$clgemm" peak "${device_args[@]}" >&2
fi
echo "sweep.sh: sweeping $sizes" >&2
status=0
"$clgemm" --kernel cl --compare clblast,openblas --sizes "$sizes" --format csv \
  --out "$work/sweep.csv" "${device_args[@]}" "${run_args[@]}" || status=$?
# 1: some result failed verification; the CSV says which, and is kept as evidence.
[ "$status" -eq 0 ] || [ "$status" -eq 1 ] || fail "clgemm exited with $status"
[ -s "$work/sweep.csv" ] || fail "clgemm wrote no CSV"

if [ -z "$out_dir" ]; then
  # The OpenCL device's name as a folder name, from the CSV itself (rows with a driver ran on it).
  slug=$(/usr/bin/python3 - "$work/sweep.csv" <<'PY'
import csv, re, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
name = next((r["device"] for r in rows if r.get("driver")), rows[0]["device"] if rows else "device")
print(re.sub(r"-+", "-", re.sub(r"[^a-z0-9]", "-", name.lower())).strip("-") or "device")
PY
)
  date=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; ++i) if ($i == "date") c = i } NR == 2 { print $c }' "$work/sweep.csv")
  out_dir=$root/data/results/$slug/sweep-${date:-undated}
fi
mkdir -p "$out_dir" || fail "cannot create '$out_dir'"

mv "$work/sweep.csv" "$out_dir/sweep.csv"
# A plot that cannot be drawn (no matplotlib on this machine, no peak for the roofline) is
# reported and the CSV is kept: tools/plot.py can draw it later, anywhere.
plotted=1
for plot in lines:gflops ladder:ladder roofline:roofline; do
  "$root/tools/plot.py" "$out_dir/sweep.csv" --kind "${plot%%:*}" -o "$out_dir/${plot##*:}.png" ||
    { echo "sweep.sh: the ${plot%%:*} plot was not drawn" >&2; plotted=0; }
done
echo "sweep.sh: wrote $(cd "$out_dir" && ls | tr '\n' ' ')in $out_dir" >&2
[ "$status" -eq 0 ] || exit "$status"
[ "$plotted" -eq 1 ] || exit 3
