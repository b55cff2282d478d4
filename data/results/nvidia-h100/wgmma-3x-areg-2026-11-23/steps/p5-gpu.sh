#!/usr/bin/env bash
# Experiment: A from registers at 64 x 128 (CHUNK, GROUP_M, STAGES) and 128 x 128 with totals in memory.
set -u
source .gpu/opencl-env.sh .gpu/deb > /dev/null
export CLGEMM_STORE=$PWD/.gpu/store-empty; mkdir -p $CLGEMM_STORE
r=$OUT/p5; mkdir -p $r
B=".gpu/build/clgemm"
F=.gpu/exp-areg3.cl
run() { # label, raw-ahead, args...
  local label=$1 as=$2; shift 2
  echo "== $label RAW_AHEAD=$as" >> $r/cfg.txt
  timeout 100 $B --kernels $F --kernel tc-3xtf32-wg "$@" --cl-options "-D RAW_AHEAD=$as" --reps 10 2>&1 | grep -E "^tc-3xtf32-wg +(3xtf32|128|256|384|512)|error" >> $r/cfg.txt
}
T="-D BM=64 -D BN=128 -D BK=8"
run "64x128 S5 C8 G16" 2 $T -D STAGES=5 -D CHUNK=8 -D GROUP_M=16 --sizes 8192
run "64x128 S5 C16 G16" 2 $T -D STAGES=5 -D CHUNK=16 -D GROUP_M=16 --sizes 8192
run "64x128 S5 C8 G8" 2 $T -D STAGES=5 -D CHUNK=8 --sizes 8192
run "64x128 S5 C8 G32" 2 $T -D STAGES=5 -D CHUNK=8 -D GROUP_M=32 --sizes 8192
run "64x128 S4 C8 G16" 2 $T -D STAGES=4 -D CHUNK=8 -D GROUP_M=16 --sizes 8192
run "64x128 S5 C8 G16" 1 $T -D STAGES=5 -D CHUNK=8 -D GROUP_M=16 --sizes 8192
run "64x128 S5 C8 G16 K16384" 2 $T -D STAGES=5 -D CHUNK=8 -D GROUP_M=16 --sizes 2048x2048x16384 --check full
run "64x128 S5 C8 G16 8191" 2 $T -D STAGES=5 -D CHUNK=8 -D GROUP_M=16 --sizes 8191
run "64x128 S5 C8 G16 4096" 2 $T -D STAGES=5 -D CHUNK=8 -D GROUP_M=16 --sizes 4096
run "128x128 S5 TM C16" 2 -D BM=128 -D BN=128 -D BK=8 -D STAGES=5 -D TOTALS_MEM=1 -D CHUNK=16 --sizes 8192
run "128x128 S5 TM C32" 1 -D BM=128 -D BN=128 -D BK=8 -D STAGES=5 -D TOTALS_MEM=1 -D CHUNK=32 --sizes 8192
run "128x64 BK16 S5 C8 G16" 2 -D BM=128 -D BN=64 -D BK=16 -D STAGES=5 -D CHUNK=8 -D GROUP_M=16 --sizes 8192
cd $OUT && tar czf p5.tgz p5 && rm -rf p5
