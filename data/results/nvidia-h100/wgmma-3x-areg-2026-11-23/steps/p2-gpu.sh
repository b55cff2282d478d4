#!/usr/bin/env bash
# Experiment: tc-3xtf32-wg with A from registers (raw, split in the kernel), B two planes.
set -u
source .gpu/opencl-env.sh .gpu/deb > /dev/null
export CLGEMM_STORE=$PWD/.gpu/store-empty; mkdir -p $CLGEMM_STORE
r=$OUT/p2; mkdir -p $r
B=".gpu/build/clgemm"
F=.gpu/exp-areg.cl
run() { # label, args...
  local label=$1; shift
  echo "== $label" >> $r/cfg.txt
  timeout 100 $B --kernels $F --kernel tc-3xtf32-wg "$@" --reps 10 2>&1 | grep -E "^tc-3xtf32-wg +(3xtf32|128|256|384|512)|error" >> $r/cfg.txt
}
timeout 60 $B --kernels $F --kernel tc-3xtf32-wg -D BM=128 -D BN=64 -D STAGES=6 --sizes 1024 --build-log --cl-options -cl-nv-verbose > $r/build-log.txt 2>&1
run "128x64 S6 1000" -D BM=128 -D BN=64 -D STAGES=6 --sizes 1000 --check full
run "128x64 S6" -D BM=128 -D BN=64 -D STAGES=6 --sizes 8192
run "128x64 S8" -D BM=128 -D BN=64 -D STAGES=8 --sizes 8192
run "128x64 S6 C8" -D BM=128 -D BN=64 -D STAGES=6 -D CHUNK=8 --sizes 8192
run "64x128 S5" -D BM=64 -D BN=128 -D STAGES=5 --sizes 8192
run "128x128 S5" -D BM=128 -D BN=128 -D STAGES=5 --sizes 8192
run "256x64 S6" -D BM=256 -D BN=64 -D STAGES=6 --sizes 8192
run "192x64 S6" -D BM=192 -D BN=64 -D STAGES=6 --sizes 8192
run "64x64 S8" -D BM=64 -D BN=64 -D STAGES=8 --sizes 8192
run "128x64 S6 TM" -D BM=128 -D BN=64 -D STAGES=6 -D TOTALS_MEM=1 -D CHUNK=32 --sizes 8192
cd $OUT && tar czf p2.tgz p2 && rm -rf p2
