#!/usr/bin/env bash
# tc-tf32-wg with packed operands: correctness, then tiles and stages at 4096/8192.
set -u
source .gpu/opencl-env.sh .gpu/deb > /dev/null
export CLGEMM_STORE=$PWD/.gpu/store-empty; mkdir -p $CLGEMM_STORE
r=$OUT/cp4; mkdir -p $r
B=".gpu/build/clgemm --kernels kernels.cl"
timeout 100 $B --kernel tc-tf32-wg --size 1024 --build-log --cl-options -cl-nv-verbose 2>&1 | grep -E "Used|error" > $r/build.txt
timeout 200 $B --kernel tc-tf32-wg --alpha 1.5 --beta 0.5 --sizes 1000,1023x517x333,257x4097x129,128,8191,8192x8192x256 --reps 3 2>&1 | grep -E "^tc-tf32-wg +tf32|error|rc=" >> $r/log.txt; echo "odd rc=$?" >> $r/log.txt
cfg() { tag=$1; shift; D=""; for kv in "$@"; do D="$D -D $kv"; done
  echo "== $tag: $D" >> $r/log.txt
  timeout 150 $B --kernel tc-tf32-wg $D --sizes 4096,8192 --reps 10 2>&1 | grep -E "^tc-tf32-wg|error" >> $r/log.txt; }
cfg s4 BM=128 BN=128 BK=8 STAGES=4
cfg n4 BM=64 BN=256 BK=8 STAGES=4
cfg n3 BM=64 BN=256 BK=8 STAGES=3
cfg w3 BM=128 BN=256 BK=8 STAGES=3
cfg t4 BM=192 BN=128 BK=8 STAGES=4
cfg k3 BM=64 BN=128 BK=16 STAGES=3
cfg m6 BM=64 BN=128 BK=8 STAGES=6
cfg g16 BM=128 BN=128 BK=8 STAGES=5 GROUP_M=16
timeout 200 $B --kernel tc-tf32-wg,tc-tf32 --compare cublas-tf32 --sizes 1024,2048,4096,8192 --reps 10 2>&1 | grep -E "^tc-tf32|^cublas|error|^M=" >> $r/log.txt; echo "cmp rc=$?" >> $r/log.txt
