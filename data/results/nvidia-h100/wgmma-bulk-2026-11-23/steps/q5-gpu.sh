#!/usr/bin/env bash
# tc-3xtf32-wg: A prefetched PF_DIST K-steps ahead (prefetch.global.L1 / .L2), no registers.
set -u
source .gpu/opencl-env.sh .gpu/deb > /dev/null
export CLGEMM_STORE=$PWD/.gpu/store-empty; mkdir -p $CLGEMM_STORE
r=$OUT/q5; mkdir -p $r
run() { # label, file, extra args, defines
  local lab=$1 f=$2 x=$3; shift 3
  D=""; for kv in "$@"; do D="$D -D $kv"; done
  echo "== $lab: $*" >> $r/cfg.txt
  timeout 100 .gpu/build/clgemm --kernels $f --kernel tc-3xtf32-wg $x $D --sizes 8192 --reps 10 2>&1 | grep -E "^tc-[a-z0-9-]+ +(3xtf32|tf32|[0-9]+ \()|error" >> $r/cfg.txt
}
run base kernels.cl ""
for d in 3 4 6 8; do run "pf L1 $d" .gpu/exp-pf.cl "" PF_DIST=$d; done
run "pf L2 4" .gpu/exp-pf.cl "" PF_DIST=4 PF_L2=1
run "pf L2 8" .gpu/exp-pf.cl "" PF_DIST=8 PF_L2=1
run "192 pf L1 3" .gpu/exp-pf.cl "" BM=192 PF_DIST=3
run "192 pf L1 4" .gpu/exp-pf.cl "" BM=192 PF_DIST=4
run "192 pf L1 6" .gpu/exp-pf.cl "" BM=192 PF_DIST=6
run "chunk16 pf L1 4" .gpu/exp-pf.cl "" CHUNK=16 PF_DIST=4
run base2 kernels.cl ""
cd $OUT && tar czf q5.tgz q5 && rm -rf q5
