#!/usr/bin/env bash
# tc-3xtf32-wg: the recorded runs (final kernel).
set -u
source .gpu/opencl-env.sh .gpu/deb > /dev/null
export CLGEMM_STORE=$PWD/.gpu/store-empty; mkdir -p $CLGEMM_STORE
r=$OUT/r4; mkdir -p $r
B=".gpu/build/clgemm --kernels kernels.cl"
timeout 100 $B --kernel tc-3xtf32-wg --size 1024 --build-log --cl-options -cl-nv-verbose > $r/build-log.txt 2>&1
timeout 100 $B --kernel tc-3xtf32-wg -D TOTALS_MEM=1 --size 1024 --build-log --cl-options -cl-nv-verbose > $r/build-log-totals-mem.txt 2>&1
timeout 250 $B --kernel tc-3xtf32-wg,tc-3xtf32,tc-tf32-wg --compare cublas,cublas-tf32 --sizes 1024,2048,4096,8192 --reps 10 --format csv --out $r/square.csv > $r/square.txt 2>&1; echo "square rc=$?" >> $r/log.txt
for c in "CHUNK=2" "CHUNK=16" "GROUP_M=16" "TOTALS_MEM=1 CHUNK=32" "TOTALS_MEM=1 CHUNK=64" "TOTALS_MEM=1 CHUNK=128" "TOTALS_MEM=1 CHUNK=256" "TOTALS_MEM=1 CHUNK=128 GROUP_M=16"; do
  D=""; for kv in $c; do D="$D -D $kv"; done
  echo "== $c" >> $r/cfg.txt
  timeout 100 $B --kernel tc-3xtf32-wg $D --sizes 8192 --reps 10 2>&1 | grep -E "^tc-3xtf32-wg +(3xtf32|128)|error" >> $r/cfg.txt
done
timeout 250 $B --kernel tc-3xtf32-wg,tc-3xtf32 --compare cublas,cublas-tf32 --sizes 2048x2048x256,2048x2048x4096,2048x2048x16384 --check full --reps 3 --format csv --out $r/error-vs-k.csv > $r/error.txt 2>&1; echo "err rc=$?" >> $r/log.txt
timeout 250 $B --kernel tc-3xtf32-wg -D TOTALS_MEM=1 -D CHUNK=128 --sizes 2048x2048x256,2048x2048x4096,2048x2048x16384,8192 --check full --reps 3 --format csv --out $r/error-vs-k-totals-mem.csv > $r/error-tm.txt 2>&1; echo "err-tm rc=$?" >> $r/log.txt
timeout 200 $B --kernel tc-3xtf32-wg --alpha 1.5 --beta 0.5 --sizes 1000,1023x517x333,257x4097x129,8191,8192x8192x256 --reps 3 --format csv --out $r/odd.csv > $r/odd.txt 2>&1; echo "odd rc=$?" >> $r/log.txt
timeout 200 $B --kernel tc-3xtf32-wg -D TOTALS_MEM=1 -D CHUNK=128 --alpha 1.5 --beta 0.5 --sizes 1000,1023x517x333,257x4097x129,8191 --reps 3 --format csv --out $r/odd-totals-mem.csv > $r/odd-tm.txt 2>&1; echo "odd-tm rc=$?" >> $r/log.txt
timeout 100 $B --kernel tc-3xtf32-wg -D BM=128 -D BN=64 -D CHUNK=3 --alpha 1.5 --beta 0.5 --sizes 1000,8191 --reps 3 > $r/other-tiles.txt 2>&1; echo "other rc=$?" >> $r/log.txt
timeout 100 $B --kernel tc-3xtf32-wg -D BM=64 -D BN=64 -D STAGES=5 -D CHUNK=5 -D TOTALS_MEM=1 --alpha 1.5 --beta 0.5 --sizes 1000,8191 --reps 3 >> $r/other-tiles.txt 2>&1; echo "other2 rc=$?" >> $r/log.txt
cd $OUT && tar czf r4.tgz r4 && rm -rf r4
