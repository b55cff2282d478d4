#!/usr/bin/env bash
# clgemm tune for the wgmma kernels at 1024-8192 (tc-3xtf32-wg with CHUNK held at 8).
set -u
source .gpu/opencl-env.sh .gpu/deb > /dev/null
export CLGEMM_STORE=$OUT/store; mkdir -p $CLGEMM_STORE
r=$OUT/t1; mkdir -p $r
for k in "$@"; do
  x=""; [ $k = tc-3xtf32-wg ] && x="--space CHUNK=8"
  for n in 1024 2048 4096 8192; do
    timeout 140 .gpu/build/clgemm tune --kernels kernels.cl --kernel $k --size $n $x --time 90 > $r/tune-$k-$n.txt 2>&1; echo "$k $n rc=$?" >> $r/log.txt
  done
done
cd $OUT && tar czf t1.tgz t1 store && rm -rf t1 store
