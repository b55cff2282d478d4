#!/usr/bin/env bash
# tc-3xtf32-wg: first runs (build figures, verified speed, CHUNK, error vs K, odd shapes).
set -u
source .gpu/opencl-env.sh .gpu/deb > /dev/null
export CLGEMM_STORE=$PWD/.gpu/store-empty; mkdir -p $CLGEMM_STORE
r=$OUT/r; mkdir -p $r
B=".gpu/build/clgemm --kernels kernels.cl"
timeout 100 $B --kernel tc-3xtf32-wg --size 1024 --build-log --cl-options -cl-nv-verbose > $r/build-log.txt 2>&1
timeout 60 $B --kernel tc-3xtf32-wg,tc-tf32-wg --size 1000 --reps 2 > $r/smoke.txt 2>&1; echo "smoke rc=$?" >> $r/log.txt
timeout 200 $B --kernel tc-3xtf32-wg,tc-3xtf32,tc-tf32-wg --compare cublas --sizes 2048,4096,8192 --reps 10 --format csv --out $r/square.csv > $r/square.txt 2>&1; echo "square rc=$?" >> $r/log.txt
for c in "CHUNK=2" "CHUNK=8" "CHUNK=16" "GROUP_M=16" "BM=128 BN=64" "STAGES=4 BN=64" "BK=16 BN=64"; do
  D=""; for kv in $c; do D="$D -D $kv"; done
  echo "== $c" >> $r/cfg.txt
  timeout 100 $B --kernel tc-3xtf32-wg $D --sizes 8192 --reps 10 2>&1 | grep -E "^tc-3xtf32-wg +3xtf32|error" >> $r/cfg.txt
done
timeout 200 $B --kernel tc-3xtf32-wg,tc-3xtf32 --compare cublas --sizes 2048x2048x256,2048x2048x4096,2048x2048x16384 --check full --reps 3 --format csv --out $r/error-vs-k.csv > $r/error.txt 2>&1; echo "err rc=$?" >> $r/log.txt
for c in 2 16 64; do
  echo "== CHUNK=$c" >> $r/err-chunk.txt
  timeout 100 $B --kernel tc-3xtf32-wg -D CHUNK=$c --sizes 2048x2048x16384 --check full --reps 2 2>&1 | grep -E "^tc-3xtf32-wg|error" >> $r/err-chunk.txt
done
timeout 200 $B --kernel tc-3xtf32-wg --alpha 1.5 --beta 0.5 --sizes 1000,1023x517x333,257x4097x129,8191,8192x8192x256 --reps 3 --format csv --out $r/odd.csv > $r/odd.txt 2>&1; echo "odd rc=$?" >> $r/log.txt
cd $OUT && tar czf r.tgz r && rm -rf r
