#!/usr/bin/env bash
# tc-3xtf32-wg: totals in private (local) memory instead of registers.
set -u
source .gpu/opencl-env.sh .gpu/deb > /dev/null
export CLGEMM_STORE=$PWD/.gpu/store-empty; mkdir -p $CLGEMM_STORE
r=$OUT/r3; mkdir -p $r
B=".gpu/build/clgemm"
run() { # label, kernels file, args...
  local label=$1 file=$2; shift 2
  echo "== $label" >> $r/cfg.txt
  timeout 100 $B --kernels $file --kernel tc-3xtf32-wg "$@" --reps 10 2>&1 | grep -E "^tc-3xtf32-wg +(3xtf32|128)|error" >> $r/cfg.txt
}
for c in 8 16 32 64 128; do run "volatile CHUNK=$c" .gpu/exp-x3volatile.cl -D CHUNK=$c --sizes 8192; done
run "volatile CHUNK=32 GROUP_M=16" .gpu/exp-x3volatile.cl -D CHUNK=32 -D GROUP_M=16 --sizes 8192
run "volatile CHUNK=32 K=16384" .gpu/exp-x3volatile.cl -D CHUNK=32 --sizes 2048x2048x16384 --check full
run "volatile CHUNK=64 K=16384" .gpu/exp-x3volatile.cl -D CHUNK=64 --sizes 2048x2048x16384 --check full
run "volatile CHUNK=128 K=16384" .gpu/exp-x3volatile.cl -D CHUNK=128 --sizes 2048x2048x16384 --check full
cd $OUT && tar czf r3.tgz r3 && rm -rf r3
