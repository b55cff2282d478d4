#!/bin/bash
# Session 37, call 3: A's 4-byte copies by blocks (A_COPY_BLOCKS, default 1) against HEAD's along rows (=0), two rounds.
set -u
R=$OUT/r; mkdir -p $R
source .gpu/opencl-env.sh .gpu/deb >/dev/null
export CLGEMM_DATA=data CLGEMM_STORE=/tmp/nostore
smi() { nvidia-smi --query-gpu=timestamp,name,driver_version,clocks.sm,clocks.mem,power.draw,power.limit,temperature.gpu,clocks_throttle_reasons.active --format=csv >> $R/gpu.txt; }
step() { local name=$1; shift; local t0=$(date +%s); smi; echo "== $name: $*" >> $R/commands.txt; timeout ${TMO:-150} "$@" > $R/$name.csv 2> $R/$name.err; echo "$name rc=$? $(( $(date +%s) - t0 )) s" | tee -a $R/steps.txt; }
nvidia-smi > $R/nvidia-smi.txt 2>&1
B=".gpu/bin-blocks/clgemm --kernel simt-async --reps 10 --format csv"
S="--sizes 2048,4096,8192"
for r in 1 2; do
  step base-$r $B $S -D A_COPY_BLOCKS=0 --compare cublas
  step blocks-$r $B --sizes 2048
  step base-noat-$r $B $S -D A_COPY_BLOCKS=0 -D AT_FROM=100000
  step blocks-noat-$r $B --sizes 4096,8192 -D AT_FROM=100000
  step blocks-noat-bk16-$r $B --sizes 4096,8192 -D AT_FROM=100000 -D BK=16
  step base-odd-$r $B --sizes 1024,1025,1920,1921,2049 -D A_COPY_BLOCKS=0
  step blocks-odd-$r $B --sizes 1024,1025,1920,1921,2049
done
smi
cd $OUT && tar czf r.tgz r && rm -rf r
