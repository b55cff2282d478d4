#!/bin/bash
# Session 37, call 2: where A's pairs lose. Probes (wrong results): pair copies with HEAD's reads, HEAD's copies with
# the pair reads; SASS of the 2048 builds (HEAD's copies, pairs).
set -u
R=$OUT/r; mkdir -p $R
source .gpu/opencl-env.sh .gpu/deb >/dev/null
export CLGEMM_DATA=data CLGEMM_STORE=/tmp/nostore
smi() { nvidia-smi --query-gpu=timestamp,name,driver_version,clocks.sm,clocks.mem,power.draw,power.limit,temperature.gpu,clocks_throttle_reasons.active --format=csv >> $R/gpu.txt; }
step() { local name=$1; shift; local t0=$(date +%s); smi; echo "== $name: $*" >> $R/commands.txt; timeout ${TMO:-150} "$@" > $R/$name.csv 2> $R/$name.err; echo "$name rc=$? $(( $(date +%s) - t0 )) s" | tee -a $R/steps.txt; }
nvidia-smi > $R/nvidia-smi.txt 2>&1
B=".gpu/bin-pair/clgemm --kernels .gpu/k-probe37.cl --kernel simt-async --reps 10 --format csv --build-log"
S="--sizes 2048,4096 -D AT_FROM=100000"
for r in 1 2; do
  step base-$r $B $S -D A_PAIR_COPIES=0
  step pairs-$r $B $S
  step copyprobe-$r $B $S -D A_PAIR_COPIES=0 -D SA_PAIR_COPY=1
  step readprobe-$r $B $S -D A_PAIR_COPIES=0 -D SA_PAIR_READ=1
done
for v in base pairs; do
  X=""; [ $v = base ] && X="-D A_PAIR_COPIES=0"
  step save-$v .gpu/bin-pair/clgemm --kernel simt-async --size 2048 --reps 2 $X --save-programs $R/programs-$v
  for p in $R/programs-$v/*.ptx; do
    /usr/local/cuda-13.0/bin/ptxas -arch=sm_90a -v "$p" -o /tmp/k.cubin >> $R/ptxas-$v.txt 2>&1
    /usr/local/cuda-13.0/bin/cuobjdump -sass /tmp/k.cubin > $R/$(basename $p .ptx).sass 2>&1
  done
done
smi
cd $OUT && tar czf r.tgz r && rm -rf r
