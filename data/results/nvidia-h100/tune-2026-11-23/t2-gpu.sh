#!/usr/bin/env bash
# The wgmma kernels with the tuned entries of data/params (empty user store): after the tuning.
set -u
source .gpu/opencl-env.sh .gpu/deb > /dev/null
export CLGEMM_STORE=$PWD/.gpu/store-empty2; mkdir -p $CLGEMM_STORE
r=$OUT/t2; mkdir -p $r
B=".gpu/build/clgemm --kernels kernels.cl"
timeout 200 $B --kernel tc-3xtf32-wg,tc-tf32-wg --compare cublas,cublas-tf32 --sizes 1024,2048,4096,8192 --reps 10 --format csv --out $r/after.csv > $r/after.txt 2>&1; echo "after rc=$?" >> $r/log.txt
for i in 1 2 3; do
  timeout 60 $B --kernel tc-3xtf32-wg,tc-tf32-wg --sizes 8192 --reps 10 2>&1 | grep -E "^tc-[a-z0-9-]+ +(3xtf32|tf32) " >> $r/repeat-8192.txt
done
timeout 120 $B --kernel tc-3xtf32-wg,tc-tf32-wg --alpha 1.5 --beta 0.5 --sizes 100x100x16,1000,1023x517x333,2000x2100x300,257x4097x129 --check full --reps 2 --format csv --out $r/odd-small.csv > $r/odd-small.txt 2>&1; echo "odd-small rc=$?" >> $r/log.txt
timeout 100 $B --kernel tc-3xtf32-wg,tc-tf32-wg --alpha 1.5 --beta 0.5 --sizes 8191,3000x5000x700 --reps 3 --format csv --out $r/odd-large.csv > $r/odd-large.txt 2>&1; echo "odd-large rc=$?" >> $r/log.txt
timeout 60 $B --kernel tc-tf32-wg -D BM=64 -D BN=256 -D STAGES=4 --size 1024 --build-log --cl-options -cl-nv-verbose > $r/build-log-64x256.txt 2>&1
cd $OUT && tar czf t2.tgz t2 && rm -rf t2
