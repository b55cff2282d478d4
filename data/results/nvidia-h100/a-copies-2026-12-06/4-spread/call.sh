#!/bin/bash
# Session 37, call 4: A's copies spread over the K-step (A_SPREAD) against HEAD's (0), two rounds; on an H200 also #28's command.
set -u
R=$OUT/r; mkdir -p $R
source .gpu/opencl-env.sh .gpu/deb >/dev/null
export CLGEMM_DATA=data CLGEMM_STORE=/tmp/nostore
smi() { nvidia-smi --query-gpu=timestamp,name,driver_version,clocks.sm,clocks.mem,power.draw,power.limit,temperature.gpu,clocks_throttle_reasons.active --format=csv >> $R/gpu.txt; }
step() { local name=$1; shift; local t0=$(date +%s); smi; echo "== $name: $*" >> $R/commands.txt; timeout ${TMO:-150} "$@" > $R/$name.csv 2> $R/$name.err; echo "$name rc=$? $(( $(date +%s) - t0 )) s" | tee -a $R/steps.txt; }
nvidia-smi > $R/nvidia-smi.txt 2>&1
B=".gpu/bin-spread/clgemm --kernel simt-async --reps 10 --format csv"
S="--sizes 2048,4096,8192"
for r in 1 2; do
  step base-$r $B $S --compare cublas
  for n in 1 2 4; do step spread$n-$r $B $S -D A_SPREAD=$n; done
  step base-noat-$r $B --sizes 4096 -D AT_FROM=100000
  step spread2-noat-$r $B --sizes 4096 -D AT_FROM=100000 -D A_SPREAD=2
  step spread1-noat-$r $B --sizes 4096 -D AT_FROM=100000 -D A_SPREAD=1
done
if grep -q H200 $R/nvidia-smi.txt; then
  step issue28 .gpu/bin-spread/clgemm --kernel best,simt-async --compare cublas --sizes 2048,4096,8191,8192,16384 --reps 10 --format csv
  step odd .gpu/bin-spread/clgemm --kernel simt-async --sizes 1024,1025,1600,1601,1920,1921,2048,2049 --reps 20 --format csv
fi
smi
cd $OUT && tar czf r.tgz r && rm -rf r
