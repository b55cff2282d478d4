#!/usr/bin/env bash
# Where does tc-tf32-wg (cp.async) lose time? Skeleton experiments at 8192 (unverified where data is skipped).
set -u
source .gpu/opencl-env.sh .gpu/deb > /dev/null
export CLGEMM_STORE=$PWD/.gpu/store-empty; mkdir -p $CLGEMM_STORE
r=$OUT/cp2; mkdir -p $r
B=".gpu/build/clgemm --kernels .gpu/exp-cp.cl --kernel tc-tf32-wg --reps 10"
run() { tag=$1; shift; echo "== $tag: $*" >> $r/log.txt
  timeout 100 $B "$@" 2>&1 | grep -E "^tc-tf32-wg +tf32|^tc-tf32-wg  |error|Used [0-9]+ reg" >> $r/log.txt; }
for cfg in "BM=128 BN=128 BK=8 STAGES=5" "BM=64 BN=256 BK=8 STAGES=4" "BM=128 BN=256 BK=8 STAGES=3"; do
  D=""; for kv in $cfg; do D="$D -D $kv"; done
  run "base $cfg" $D --size 8192
  run "nocopy $cfg" $D --size 8192 --cl-options "-D EXP_NOCOPY=1"
  run "same $cfg" $D --size 8192 --cl-options "-D EXP_SAME=1"
  run "nomma $cfg" $D --size 8192 --cl-options "-D EXP_NOMMA=1"
  run "nofence $cfg" $D --size 8192 --cl-options "-D EXP_NOFENCE=1"
done
D="-D BM=128 -D BN=128 -D BK=8 -D STAGES=5"
for gm in 1 4 16 32; do run "gm$gm" $D -D GROUP_M=$gm --size 8192; done
run "size2048" $D --size 2048
run "size2048x2048x16384" $D --size 2048x2048x16384
run "rreg80" $D --size 8192 --build-log --cl-options "-cl-nv-maxrregcount=80 -cl-nv-verbose"
run "rreg80-s4" -D BM=128 -D BN=128 -D BK=8 -D STAGES=4 --size 8192 --build-log --cl-options "-cl-nv-maxrregcount=80 -cl-nv-verbose"
