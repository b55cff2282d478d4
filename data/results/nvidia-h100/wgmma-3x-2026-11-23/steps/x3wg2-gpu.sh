#!/usr/bin/env bash
# tc-3xtf32-wg: what holds it at 77 (registers/occupancy?).
set -u
source .gpu/opencl-env.sh .gpu/deb > /dev/null
export CLGEMM_STORE=$PWD/.gpu/store-empty; mkdir -p $CLGEMM_STORE
r=$OUT/r2; mkdir -p $r
B=".gpu/build/clgemm"
run() { # label, kernels file, args...
  local label=$1 file=$2; shift 2
  echo "== $label" >> $r/cfg.txt
  timeout 100 $B --kernels $file --kernel tc-3xtf32-wg "$@" --sizes 8192 --reps 10 2>&1 | grep -E "^tc-3xtf32-wg +(3xtf32|128)|error" >> $r/cfg.txt
}
run "no totals (unverified ceiling)" .gpu/exp-x3nototal.cl --no-check
run "no totals GROUP_M=16" .gpu/exp-x3nototal.cl --no-check -D GROUP_M=16
run "maxrreg 128 CHUNK=4" kernels.cl --cl-options -cl-nv-maxrregcount=128
run "maxrreg 128 CHUNK=16" kernels.cl -D CHUNK=16 --cl-options -cl-nv-maxrregcount=128
run "maxrreg 128 CHUNK=64" kernels.cl -D CHUNK=64 --cl-options -cl-nv-maxrregcount=128
run "maxrreg 96 CHUNK=16" kernels.cl -D CHUNK=16 --cl-options -cl-nv-maxrregcount=96
run "maxrreg 96 CHUNK=64" kernels.cl -D CHUNK=64 --cl-options -cl-nv-maxrregcount=96
run "default again" kernels.cl
cd $OUT && tar czf r2.tgz r2 && rm -rf r2
