#!/usr/bin/env bash
# tc-3xtf32-wg with A from registers: the working tree (build figures, verified speed, error vs K,
# odd shapes, tc-tf32-wg after the section's split into two kernels).
set -u
source .gpu/opencl-env.sh .gpu/deb > /dev/null
export CLGEMM_STORE=$PWD/.gpu/store-empty; mkdir -p $CLGEMM_STORE
r=$OUT/r6; mkdir -p $r
B=".gpu/build/clgemm --kernels kernels.cl"
timeout 60 $B --kernel tc-3xtf32-wg,tc-tf32-wg --size 1024 --build-log --cl-options -cl-nv-verbose > $r/build-log.txt 2>&1; echo "build rc=$?" >> $r/log.txt
timeout 60 $B --kernel tc-3xtf32-wg,tc-tf32-wg --alpha 1.5 --beta 0.5 --sizes 1000,1023x517x333,257x4097x129 --check full --reps 3 --format csv --out $r/odd-small.csv > $r/odd-small.txt 2>&1; echo "odd-small rc=$?" >> $r/log.txt
timeout 200 $B --kernel tc-3xtf32-wg,tc-3xtf32,tc-tf32-wg --compare cublas,cublas-tf32 --sizes 1024,2048,4096,8192 --reps 10 --format csv --out $r/square.csv > $r/square.txt 2>&1; echo "square rc=$?" >> $r/log.txt
timeout 200 $B --kernel tc-3xtf32-wg,tc-3xtf32 --compare cublas --sizes 2048x2048x256,2048x2048x4096,2048x2048x16384 --check full --reps 3 --format csv --out $r/error-vs-k.csv > $r/error.txt 2>&1; echo "err rc=$?" >> $r/log.txt
timeout 100 $B --kernel tc-3xtf32-wg --alpha 1.5 --beta 0.5 --sizes 8191,8192x8192x256 --reps 3 --format csv --out $r/odd-large.csv > $r/odd-large.txt 2>&1; echo "odd-large rc=$?" >> $r/log.txt
for c in "CHUNK=4" "CHUNK=16" "STAGES=4" "BM=128 BN=64 BK=16" "TOTALS_MEM=1 CHUNK=32" "GROUP_M=8"; do
  D=""; for kv in $c; do D="$D -D $kv"; done
  echo "== $c" >> $r/cfg.txt
  timeout 100 $B --kernel tc-3xtf32-wg $D --sizes 8192 --reps 10 2>&1 | grep -E "^tc-3xtf32-wg +(3xtf32|128|256)|error" >> $r/cfg.txt
done
cd $OUT && tar czf r6.tgz r6 && rm -rf r6
