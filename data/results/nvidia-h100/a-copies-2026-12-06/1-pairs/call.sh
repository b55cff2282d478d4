#!/bin/bash
# Session 37, call 1: A's pairs (A_PAIRS) against HEAD's copies of A (A_PAIR_COPIES=0), two rounds; cuBLAS beside.
set -u
R=$OUT/r; mkdir -p $R
source .gpu/opencl-env.sh .gpu/deb >/dev/null
export CLGEMM_DATA=data CLGEMM_STORE=/tmp/nostore
smi() { nvidia-smi --query-gpu=timestamp,name,driver_version,clocks.sm,clocks.mem,power.draw,power.limit,temperature.gpu,clocks_throttle_reasons.active --format=csv >> $R/gpu.txt; }
step() { local name=$1; shift; local t0=$(date +%s); smi; echo "== $name: $*" >> $R/commands.txt; timeout ${TMO:-150} "$@" > $R/$name.csv 2> $R/$name.err; echo "$name rc=$? $(( $(date +%s) - t0 )) s" | tee -a $R/steps.txt; }
nvidia-smi > $R/nvidia-smi.txt 2>&1
B=".gpu/bin-pair/clgemm --kernel simt-async --reps 10 --format csv"
S="--sizes 2048,4096,8192"
for r in 1 2; do
  step base-$r $B $S -D A_PAIR_COPIES=0 --compare cublas
  step pairs-$r $B --sizes 2048 --build-log
  step base-noat-$r $B $S -D A_PAIR_COPIES=0 -D AT_FROM=100000
  step pairs-noat-$r $B --sizes 4096,8192 -D AT_FROM=100000 --build-log
  step pairs-noat-bk16-$r $B --sizes 4096,8192 -D AT_FROM=100000 -D BK=16 --build-log
  step pairs-bk32-$r $B --sizes 2048 -D BK=32 --build-log
done
smi
cd $OUT && tar czf r.tgz r && rm -rf r
