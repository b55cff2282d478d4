#!/usr/bin/env bash
# tc-tf32-wg (packed operands, cp.async, wgmma): the recorded runs.
set -u
source .gpu/opencl-env.sh .gpu/deb > /dev/null
export CLGEMM_STORE=$PWD/.gpu/store-empty; mkdir -p $CLGEMM_STORE
r=$OUT/r; mkdir -p $r
B=".gpu/build/clgemm --kernels kernels.cl"
timeout 100 $B --kernel tc-tf32-wg --size 1024 --build-log --cl-options -cl-nv-verbose > $r/build-log.txt 2>&1
timeout 200 $B --kernel tc-tf32-wg,tc-tf32 --compare cublas,cublas-tf32 --sizes 1024,2048,4096,8192 --reps 10 --format csv --out $r/square.csv > $r/square.txt 2>&1; echo "square rc=$?" >> $r/log.txt
timeout 200 $B --kernel tc-tf32-wg --alpha 1.5 --beta 0.5 --sizes 1000,1023x517x333,257x4097x129,8191,8192x8192x256 --reps 3 --format csv --out $r/odd.csv >> $r/log.txt 2>&1; echo "odd rc=$?" >> $r/log.txt
timeout 200 $B --kernel tc-tf32-wg,tc-tf32 --compare cublas-tf32 --sizes 2048x2048x256,2048x2048x4096,2048x2048x16384 --check full --reps 3 --format csv --out $r/error-vs-k.csv >> $r/log.txt 2>&1; echo "err rc=$?" >> $r/log.txt
for c in "STAGES=4" "STAGES=6" "GROUP_M=16" "BM=64 BN=256 STAGES=4" "BM=64 BN=128 BK=16 STAGES=3" "BM=128 BN=256 STAGES=3"; do
  D=""; for kv in $c; do D="$D -D $kv"; done
  echo "== $c" >> $r/cfg.txt
  timeout 100 $B --kernel tc-tf32-wg $D --sizes 8192 --reps 10 2>&1 | grep -E "^tc-tf32-wg +tf32|error" >> $r/cfg.txt
done
cd $OUT && tar czf r.tgz r && rm -rf r
