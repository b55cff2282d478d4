#!/usr/bin/env bash
# Probe: is tc-3xtf32-wg bound by the bytes it moves? Copy only the big planes (unverified).
set -u
source .gpu/opencl-env.sh .gpu/deb > /dev/null
export CLGEMM_STORE=$PWD/.gpu/store-empty; mkdir -p $CLGEMM_STORE
r=$OUT/p1; mkdir -p $r
B=".gpu/build/clgemm"
run() { # label, kernels file, args...
  local label=$1 file=$2; shift 2
  echo "== $label" >> $r/cfg.txt
  timeout 100 $B --kernels $file --kernel tc-3xtf32-wg "$@" --reps 10 2>&1 | grep -E "^tc-3xtf32-wg +(3xtf32|128)|error" >> $r/cfg.txt
}
run "base" kernels.cl --sizes 8192
run "half" .gpu/exp-half.cl --sizes 8192 --no-check
run "half CHUNK=32" .gpu/exp-half.cl -D CHUNK=32 --sizes 8192 --no-check
run "64x64 S5" kernels.cl -D BN=64 -D STAGES=5 --sizes 8192
run "64x64 S5 half" .gpu/exp-half.cl -D BN=64 -D STAGES=5 --sizes 8192 --no-check
run "64x64 S4" kernels.cl -D BN=64 -D STAGES=4 --sizes 8192
run "128x64 S3" kernels.cl -D BM=128 -D BN=64 --sizes 8192
cd $OUT && tar czf p1.tgz p1 && rm -rf p1
