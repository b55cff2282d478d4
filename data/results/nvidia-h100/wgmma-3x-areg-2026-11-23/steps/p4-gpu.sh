#!/usr/bin/env bash
# Experiment: A from registers, wgmma wait moved behind the next barrier, raw A prefetch depth.
set -u
source .gpu/opencl-env.sh .gpu/deb > /dev/null
export CLGEMM_STORE=$PWD/.gpu/store-empty; mkdir -p $CLGEMM_STORE
r=$OUT/p4; mkdir -p $r
B=".gpu/build/clgemm"
F=.gpu/exp-areg3.cl
run() { # label, raw-ahead, args...
  local label=$1 as=$2; shift 2
  echo "== $label RAW_AHEAD=$as" >> $r/cfg.txt
  timeout 100 $B --kernels $F --kernel tc-3xtf32-wg "$@" --cl-options "-D RAW_AHEAD=$as" --reps 10 2>&1 | grep -E "^tc-3xtf32-wg +(3xtf32|128|256|384|512)|error" >> $r/cfg.txt
}
timeout 60 $B --kernels $F --kernel tc-3xtf32-wg -D BM=128 -D BN=64 -D BK=16 -D STAGES=5 --sizes 1024 --build-log --cl-options "-cl-nv-verbose -D RAW_AHEAD=2" > $r/build-log.txt 2>&1
run "128x64 BK16 S5" 1 -D BM=128 -D BN=64 -D BK=16 -D STAGES=5 --sizes 8192
run "128x64 BK16 S5" 2 -D BM=128 -D BN=64 -D BK=16 -D STAGES=5 --sizes 8192
run "128x64 BK16 S5 1000" 2 -D BM=128 -D BN=64 -D BK=16 -D STAGES=5 --sizes 1000 --check full
run "128x64 BK16 S5 odd" 2 -D BM=128 -D BN=64 -D BK=16 -D STAGES=5 --sizes 1023x517x333 --check full
run "64x64 BK16 S5" 1 -D BM=64 -D BN=64 -D BK=16 -D STAGES=5 --sizes 8192
run "64x64 BK16 S5" 2 -D BM=64 -D BN=64 -D BK=16 -D STAGES=5 --sizes 8192
run "256x64 BK16 S5" 2 -D BM=256 -D BN=64 -D BK=16 -D STAGES=5 --sizes 8192
run "128x64 BK16 S5 C8" 2 -D BM=128 -D BN=64 -D BK=16 -D STAGES=5 -D CHUNK=8 --sizes 8192
run "128x64 BK16 S5 G16" 2 -D BM=128 -D BN=64 -D BK=16 -D STAGES=5 -D GROUP_M=16 --sizes 8192
run "128x64 BK24 S3" 2 -D BM=128 -D BN=64 -D BK=24 -D STAGES=3 --sizes 8192
run "128x64 BK16 S5 TM C16" 2 -D BM=128 -D BN=64 -D BK=16 -D STAGES=5 -D TOTALS_MEM=1 -D CHUNK=16 --sizes 8192
run "128x64 BK8 S8" 2 -D BM=128 -D BN=64 -D BK=8 -D STAGES=8 --sizes 8192
run "64x128 BK8 S5" 2 -D BM=64 -D BN=128 -D BK=8 -D STAGES=5 --sizes 8192
cd $OUT && tar czf p4.tgz p4 && rm -rf p4
