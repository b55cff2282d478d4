#!/usr/bin/env bash
# Bulk-copy tc-3xtf32-wg: GROUP_M 8 against 16, alternating, at 8192^3 and 4096^3.
set -u
source .gpu/opencl-env.sh .gpu/deb > /dev/null
export CLGEMM_STORE=$PWD/.gpu/store-empty; mkdir -p $CLGEMM_STORE
r=$OUT/q8; mkdir -p $r
run() { # label, size, defines
  local lab=$1 n=$2; shift 2
  D=""; for kv in "$@"; do D="$D -D $kv"; done
  echo "== $lab: $n $*" >> $r/cfg.txt
  timeout 100 .gpu/build/clgemm --kernels kernels.cl --kernel tc-3xtf32-wg $D --sizes $n --reps 10 2>&1 | grep -E "^tc-[a-z0-9-]+ +(3xtf32|tf32)|error" >> $r/cfg.txt
}
for i in 1 2 3; do run g16 8192 GROUP_M=16; run g8 8192 GROUP_M=8; done
run g4 8192 GROUP_M=4; run g32 8192 GROUP_M=32
run g8-c16 8192 GROUP_M=8 CHUNK=16
for i in 1 2; do run g16 4096 GROUP_M=16; run g8 4096 GROUP_M=8; done
run g8-s3 8192 GROUP_M=8 STAGES=3
cd $OUT && tar czf q8.tgz q8 && rm -rf q8
