#!/usr/bin/env bash
# Bulk copies (cp.async.bulk + mbarrier) in both wgmma kernels: the working tree, recorded.
set -u
source .gpu/opencl-env.sh .gpu/deb > /dev/null
export CLGEMM_STORE=$PWD/.gpu/store-empty; mkdir -p $CLGEMM_STORE
r=$OUT/r9; mkdir -p $r
B=".gpu/build/clgemm --kernels kernels.cl"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > $r/gpu.txt 2>&1
timeout 60 $B --kernel tc-3xtf32-wg,tc-tf32-wg --size 1024 --build-log --cl-options -cl-nv-verbose > $r/build-log.txt 2>&1; echo "build rc=$?" >> $r/log.txt
timeout 90 $B --kernel tc-3xtf32-wg,tc-tf32-wg --alpha 1.5 --beta 0.5 --sizes 64x128x8,100x100x16,300x200x24,1000,1023x517x333,257x4097x129 --check full --reps 2 --format csv --out $r/odd-small.csv > $r/odd-small.txt 2>&1; echo "odd-small rc=$?" >> $r/log.txt
timeout 200 $B --kernel tc-3xtf32-wg,tc-3xtf32,tc-tf32-wg --compare cublas,cublas-tf32 --sizes 1024,2048,4096,8192 --reps 10 --format csv --out $r/square.csv > $r/square.txt 2>&1; echo "square rc=$?" >> $r/log.txt
timeout 200 $B --kernel tc-3xtf32-wg,tc-3xtf32 --compare cublas --sizes 2048x2048x256,2048x2048x4096,2048x2048x16384 --check full --reps 3 --format csv --out $r/error-vs-k.csv > $r/error.txt 2>&1; echo "err rc=$?" >> $r/log.txt
timeout 100 $B --kernel tc-3xtf32-wg,tc-tf32-wg --alpha 1.5 --beta 0.5 --sizes 8191,8192x8192x256 --reps 3 --format csv --out $r/odd-large.csv > $r/odd-large.txt 2>&1; echo "odd-large rc=$?" >> $r/log.txt
for i in 1 2 3; do
  timeout 60 $B --kernel tc-3xtf32-wg,tc-tf32-wg --sizes 8192 --reps 10 2>&1 | grep -E "^tc-[a-z0-9-]+ +(3xtf32|tf32) " >> $r/repeat-8192.txt
done
for c in "tc-3xtf32-wg CHUNK=16" "tc-3xtf32-wg GROUP_M=8" "tc-3xtf32-wg TOTALS_MEM=1 CHUNK=32" "tc-3xtf32-wg BM=128 BN=64" "tc-3xtf32-wg STAGES=3" "tc-3xtf32-wg BM=192 STAGES=3" "tc-tf32-wg STAGES=4" "tc-tf32-wg BM=64" "tc-tf32-wg BN=256 STAGES=3"; do
  set -- $c; k=$1; shift; D=""; for kv in "$@"; do D="$D -D $kv"; done
  echo "== $c" >> $r/cfg.txt
  timeout 100 $B --kernel $k $D --sizes 8192 --reps 10 2>&1 | grep -E "^tc-[a-z0-9-]+ +(3xtf32|tf32|[0-9]+ \()|error" >> $r/cfg.txt
done
timeout 240 .gpu/build/clgemm tune --kernels kernels.cl --kernel tc-3xtf32-wg --size 4096 > $r/tune.txt 2>&1; echo "tune rc=$?" >> $r/log.txt
cd $OUT && tar czf r9.tgz r9 && rm -rf r9
