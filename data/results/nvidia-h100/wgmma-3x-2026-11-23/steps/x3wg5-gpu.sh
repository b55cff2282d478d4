#!/usr/bin/env bash
# tc-3xtf32-wg: the final tree, once more (kernels.cl's defaults restructured, tuner candidates).
set -u
source .gpu/opencl-env.sh .gpu/deb > /dev/null
export CLGEMM_STORE=$PWD/.gpu/store-empty; mkdir -p $CLGEMM_STORE
r=$OUT/r5; mkdir -p $r
B=".gpu/build/clgemm --kernels kernels.cl"
timeout 200 $B --kernel tc-3xtf32-wg,tc-tf32-wg,tc-3xtf32 --compare cublas --sizes 8192 --reps 10 > $r/final-8192.txt 2>&1; echo "final rc=$?" >> $r/log.txt
timeout 100 $B --kernel tc-3xtf32-wg,tc-tf32-wg --alpha 1.5 --beta 0.5 --sizes 1000,257x4097x129 --reps 3 > $r/final-odd.txt 2>&1; echo "odd rc=$?" >> $r/log.txt
timeout 200 .gpu/build/clgemm tune --kernels kernels.cl --kernel tc-3xtf32-wg --size 4096 --space CHUNK=4,32 --space TOTALS_MEM=0,1 --reps 3 > $r/tune.txt 2>&1; echo "tune rc=$?" >> $r/log.txt
cd $OUT && tar czf r5.tgz r5 && rm -rf r5
