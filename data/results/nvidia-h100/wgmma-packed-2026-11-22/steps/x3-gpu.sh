#!/usr/bin/env bash
# 3xTF32 on wgmma, traffic and issue only (unverified): 4 tiles per K-step, 3 wgmmas. Reported
# GFLOP/s count 2MNK over a loop of K/2 steps: the 3xTF32 rate is half of it.
set -u
source .gpu/opencl-env.sh .gpu/deb > /dev/null
export CLGEMM_STORE=$PWD/.gpu/store-empty; mkdir -p $CLGEMM_STORE
r=$OUT/x3; mkdir -p $r
B=".gpu/build/clgemm --kernels .gpu/exp-3x.cl --kernel tc-tf32-wg --reps 10 --size 8192"
for c in "BM=64 BN=128 BK=8 STAGES=3" "BM=128 BN=64 BK=8 STAGES=3" "BM=64 BN=64 BK=8 STAGES=5" "BM=64 BN=128 BK=8 STAGES=3 GROUP_M=16" "BM=64 BN=64 BK=8 STAGES=4"; do
  D=""; for kv in $c; do D="$D -D $kv"; done
  echo "== $c" >> $r/log.txt
  timeout 100 $B $D 2>&1 | grep -E "^tc-tf32-wg  |error" >> $r/log.txt
done
