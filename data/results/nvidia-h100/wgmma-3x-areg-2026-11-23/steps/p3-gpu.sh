#!/usr/bin/env bash
# Experiment: A from registers, BK 16 and one A register set.
set -u
source .gpu/opencl-env.sh .gpu/deb > /dev/null
export CLGEMM_STORE=$PWD/.gpu/store-empty; mkdir -p $CLGEMM_STORE
r=$OUT/p3; mkdir -p $r
B=".gpu/build/clgemm"
F=.gpu/exp-areg2.cl
run() { # label, asets, args...
  local label=$1 as=$2; shift 2
  echo "== $label ASETS=$as" >> $r/cfg.txt
  timeout 100 $B --kernels $F --kernel tc-3xtf32-wg "$@" --cl-options "-D ASETS=$as" --reps 10 2>&1 | grep -E "^tc-3xtf32-wg +(3xtf32|128|256|384|512)|error" >> $r/cfg.txt
}
run "128x64 BK16 S5" 2 -D BM=128 -D BN=64 -D BK=16 -D STAGES=5 --sizes 8192
run "128x64 BK16 S5" 1 -D BM=128 -D BN=64 -D BK=16 -D STAGES=5 --sizes 8192
run "128x64 BK16 S5 1000" 1 -D BM=128 -D BN=64 -D BK=16 -D STAGES=5 --sizes 1000 --check full
run "128x64 BK8 S8" 1 -D BM=128 -D BN=64 -D STAGES=8 --sizes 8192
run "64x64 BK8 S8" 1 -D BM=64 -D BN=64 -D STAGES=8 --sizes 8192
run "64x64 BK16 S5" 1 -D BM=64 -D BN=64 -D BK=16 -D STAGES=5 --sizes 8192
run "64x64 BK16 S5" 2 -D BM=64 -D BN=64 -D BK=16 -D STAGES=5 --sizes 8192
run "64x128 BK8 S5" 1 -D BM=64 -D BN=128 -D STAGES=5 --sizes 8192
run "128x128 BK8 S5" 1 -D BM=128 -D BN=128 -D STAGES=5 --sizes 8192
run "256x64 BK16 S5" 1 -D BM=256 -D BN=64 -D BK=16 -D STAGES=5 --sizes 8192
run "128x64 BK16 S5 C8" 1 -D BM=128 -D BN=64 -D BK=16 -D STAGES=5 -D CHUNK=8 --sizes 8192
cd $OUT && tar czf p3.tgz p3 && rm -rf p3
