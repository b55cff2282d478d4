#!/usr/bin/env bash
# Shapes of tc-3xtf32-wg at 8192^3: more warpgroups sharing B; and a half-B-bytes probe.
set -u
source .gpu/opencl-env.sh .gpu/deb > /dev/null
export CLGEMM_STORE=$PWD/.gpu/store-empty; mkdir -p $CLGEMM_STORE
r=$OUT/q1; mkdir -p $r
B=".gpu/build/clgemm --kernels kernels.cl"
run() { # label, kernels file, extra args, defines
  local lab=$1 f=$2 x=$3; shift 3
  D=""; for kv in "$@"; do D="$D -D $kv"; done
  echo "== $lab: $*" >> $r/cfg.txt
  timeout 100 .gpu/build/clgemm --kernels $f --kernel tc-3xtf32-wg $x $D --sizes 8192 --reps 10 2>&1 | grep -E "^tc-3xtf32-wg +(3xtf32|[0-9]+ \()|error" >> $r/cfg.txt
}
run base kernels.cl ""
run halfB .gpu/exp-halfb.cl "--no-check"
run 128x128 kernels.cl "" BM=128
run 192x128 kernels.cl "" BM=192
run 128x64 kernels.cl "" BM=128 BN=64
run 192x64 kernels.cl "" BM=192 BN=64
run 256x64 kernels.cl "" BM=256 BN=64
run 128x128-mem kernels.cl "" BM=128 TOTALS_MEM=1 CHUNK=16
run 256x64-mem kernels.cl "" BM=256 BN=64 TOTALS_MEM=1 CHUNK=16
run 128x128-s4 kernels.cl "" BM=128 STAGES=4
run 192x128-s4 kernels.cl "" BM=192 STAGES=4
run base2 kernels.cl ""
cd $OUT && tar czf q1.tgz q1 && rm -rf q1
