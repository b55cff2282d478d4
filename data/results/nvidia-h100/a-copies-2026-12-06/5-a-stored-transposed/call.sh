#!/bin/bash
# Session 37, call 5: the bound on packing A^T inside the GEMM: simt-async over an A stored transposed (--trans-a t, no copy) against NN, two rounds; cuBLAS beside each.
set -u
R=$OUT/r; mkdir -p $R
source .gpu/opencl-env.sh .gpu/deb >/dev/null
export CLGEMM_DATA=data CLGEMM_STORE=/tmp/nostore
smi() { nvidia-smi --query-gpu=timestamp,name,driver_version,clocks.sm,clocks.mem,power.draw,power.limit,temperature.gpu,clocks_throttle_reasons.active --format=csv >> $R/gpu.txt; }
step() { local name=$1; shift; local t0=$(date +%s); smi; echo "== $name: $*" >> $R/commands.txt; timeout ${TMO:-150} "$@" > $R/$name.csv 2> $R/$name.err; echo "$name rc=$? $(( $(date +%s) - t0 )) s" | tee -a $R/steps.txt; }
nvidia-smi > $R/nvidia-smi.txt 2>&1
B=".gpu/bin-gate/clgemm --kernel simt-async --reps 10 --format csv --compare cublas"
E="-D BM=128 -D BN=128 -D TM=8 -D TN=8 -D STAGES=2 -D PADA=4 -D PADB=4"
for r in 1 2; do
  step nn-$r $B --sizes 2048,4096,8192
  step tn-2048-$r $B --trans-a t --sizes 2048 $E -D BK=16 -D GROUP_M=16
  step tn-2048-bk32-$r $B --trans-a t --sizes 2048 $E -D BK=32 -D GROUP_M=8
  step tn-big-$r $B --trans-a t --sizes 4096,8192 $E -D BK=32 -D GROUP_M=8
done
smi
cd $OUT && tar czf r.tgz r && rm -rf r
