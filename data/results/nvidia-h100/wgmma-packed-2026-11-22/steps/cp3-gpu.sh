#!/usr/bin/env bash
# Is cp.async limited by its scattered 32-byte row pieces? Contiguous copies (unverified) at 8192.
set -u
source .gpu/opencl-env.sh .gpu/deb > /dev/null
export CLGEMM_STORE=$PWD/.gpu/store-empty; mkdir -p $CLGEMM_STORE
r=$OUT/cp3; mkdir -p $r
B=".gpu/build/clgemm --kernels .gpu/exp-cp.cl --kernel tc-tf32-wg --reps 10"
run() { tag=$1; shift; echo "== $tag: $*" >> $r/log.txt
  timeout 100 $B "$@" 2>&1 | grep -E "^tc-tf32-wg +tf32|error" >> $r/log.txt; }
for cfg in "BM=128 BN=128 BK=8 STAGES=5" "BM=128 BN=128 BK=8 STAGES=4" "BM=64 BN=256 BK=8 STAGES=4" "BM=128 BN=256 BK=8 STAGES=3" "BM=64 BN=128 BK=16 STAGES=3" "BM=128 BN=64 BK=16 STAGES=3"; do
  D=""; for kv in $cfg; do D="$D -D $kv"; done
  run "linear $cfg" $D --size 8192 --cl-options "-D EXP_LINEAR=1"
  run "linear-nomma $cfg" $D --size 8192 --cl-options "-D EXP_LINEAR=1 -D EXP_NOMMA=1"
done
