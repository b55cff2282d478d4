#!/usr/bin/env bash
# Experiment: BK 16 at 64 x 128 with two local buffers (the wgmma wait before the barrier), and
# the spread of repeated runs.
set -u
source .gpu/opencl-env.sh .gpu/deb > /dev/null
export CLGEMM_STORE=$PWD/.gpu/store-empty; mkdir -p $CLGEMM_STORE
r=$OUT/p7; mkdir -p $r
B=".gpu/build/clgemm"
run() { # label, file, args...
  local label=$1 f=$2; shift 2
  echo "== $label" >> $r/cfg.txt
  timeout 100 $B --kernels $f --kernel tc-3xtf32-wg "$@" --reps 10 2>&1 | grep -E "^tc-3xtf32-wg +(3xtf32|128|256|384|512)|error" >> $r/cfg.txt
}
run "S2 BK16 1000" .gpu/exp-s2.cl -D BK=16 -D STAGES=2 --sizes 1000 --check full
for i in 1 2; do
run "default $i" kernels.cl --sizes 8192
run "S2 BK16 $i" .gpu/exp-s2.cl -D BK=16 -D STAGES=2 --sizes 8192
run "S2 BK16 CHUNK4 $i" .gpu/exp-s2.cl -D BK=16 -D STAGES=2 -D CHUNK=4 --sizes 8192
run "CHUNK16 $i" kernels.cl -D CHUNK=16 --sizes 8192
done
run "default 3" kernels.cl --sizes 8192
run "S2 BK8" .gpu/exp-s2.cl -D STAGES=2 --sizes 8192
run "128x64 S2 BK16" .gpu/exp-s2.cl -D BM=128 -D BN=64 -D BK=16 -D STAGES=2 --sizes 8192
run "128x64 S3 BK32" .gpu/exp-s2.cl -D BM=128 -D BN=64 -D BK=32 -D STAGES=2 --sizes 8192
cd $OUT && tar czf p7.tgz p7 && rm -rf p7
