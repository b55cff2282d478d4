#!/usr/bin/env bash
# tc-3xtf32-wg with its K-loop unrolled twice (A two steps ahead without register copies).
set -u
source .gpu/opencl-env.sh .gpu/deb > /dev/null
export CLGEMM_STORE=$PWD/.gpu/store-empty; mkdir -p $CLGEMM_STORE
r=$OUT/q4; mkdir -p $r
run() { # label, file, extra args, defines
  local lab=$1 f=$2 x=$3; shift 3
  D=""; for kv in "$@"; do D="$D -D $kv"; done
  echo "== $lab: $*" >> $r/cfg.txt
  timeout 100 .gpu/build/clgemm --kernels $f --kernel tc-3xtf32-wg $x $D --sizes 8192 --reps 10 2>&1 | grep -E "^tc-[a-z0-9-]+ +(3xtf32|tf32|[0-9]+ \()|error" >> $r/cfg.txt
}
timeout 60 .gpu/build/clgemm --kernels kernels.cl --kernel tc-3xtf32-wg --alpha 1.5 --beta 0.5 --sizes 64x128x8,100x100x16,300x200x24,1000,1023x517x333,257x4097x129 --check full --reps 2 > $r/odd.txt 2>&1; echo "odd rc=$?" >> $r/odd.txt
run old .gpu/exp-old.cl ""
run new kernels.cl ""
run new-192 kernels.cl "" BM=192
run new-chunk16 kernels.cl "" CHUNK=16
run new-192-chunk16 kernels.cl "" BM=192 CHUNK=16
run new-s4 kernels.cl "" STAGES=4
run new-g8 kernels.cl "" GROUP_M=8
run old2 .gpu/exp-old.cl ""
run new2 kernels.cl ""
timeout 60 .gpu/build/clgemm --kernels kernels.cl --kernel tc-3xtf32-wg --size 1024 --build-log --cl-options -cl-nv-verbose > $r/build-log.txt 2>&1
cd $OUT && tar czf q4.tgz q4 && rm -rf q4
