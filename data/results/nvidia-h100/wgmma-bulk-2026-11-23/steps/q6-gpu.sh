#!/usr/bin/env bash
# tc-3xtf32-wg with TMA bulk copies (cp.async.bulk + mbarrier) for B (and A with TMA_A=1).
set -u
source .gpu/opencl-env.sh .gpu/deb > /dev/null
export CLGEMM_STORE=$PWD/.gpu/store-empty; mkdir -p $CLGEMM_STORE
r=$OUT/q6; mkdir -p $r
run() { # label, file, extra args, defines
  local lab=$1 f=$2 x=$3; shift 3
  D=""; for kv in "$@"; do D="$D -D $kv"; done
  echo "== $lab: $*" >> $r/cfg.txt
  timeout 100 .gpu/build/clgemm --kernels $f --kernel tc-3xtf32-wg $x $D --sizes 8192 --reps 10 2>&1 | grep -E "^tc-[a-z0-9-]+ +(3xtf32|tf32|[0-9]+ \()|error" >> $r/cfg.txt
}
timeout 60 .gpu/build/clgemm --kernels .gpu/exp-tma.cl --kernel tc-3xtf32-wg --size 1024 --build-log --cl-options -cl-nv-verbose > $r/build-log.txt 2>&1
timeout 60 .gpu/build/clgemm --kernels .gpu/exp-tma.cl --kernel tc-3xtf32-wg -D TMA_A=1 -D STAGES=4 --size 1024 --build-log --cl-options -cl-nv-verbose > $r/build-log-a.txt 2>&1
timeout 60 .gpu/build/clgemm --kernels .gpu/exp-tma.cl --kernel tc-3xtf32-wg --alpha 1.5 --beta 0.5 --sizes 64x128x8,300x200x24,1023x517x333,257x4097x129 --check full --reps 2 > $r/odd.txt 2>&1; echo "odd rc=$?" >> $r/odd.txt
timeout 60 .gpu/build/clgemm --kernels .gpu/exp-tma.cl --kernel tc-3xtf32-wg -D TMA_A=1 -D STAGES=4 --alpha 1.5 --beta 0.5 --sizes 64x128x8,300x200x24,1023x517x333,257x4097x129 --check full --reps 2 >> $r/odd.txt 2>&1; echo "odd-a rc=$?" >> $r/odd.txt
run base kernels.cl ""
run tma-S5 .gpu/exp-tma.cl ""
run tma-S4 .gpu/exp-tma.cl "" STAGES=4
run tma-S3 .gpu/exp-tma.cl "" STAGES=3
run tmaA-S4 .gpu/exp-tma.cl "" TMA_A=1 STAGES=4
run tmaA-S3 .gpu/exp-tma.cl "" TMA_A=1 STAGES=3
run tma-192-S5 .gpu/exp-tma.cl "" BM=192
run tmaA-192-S3 .gpu/exp-tma.cl "" BM=192 TMA_A=1 STAGES=3
run tma-S5-c16 .gpu/exp-tma.cl "" CHUNK=16
run tmaA-S4-c16 .gpu/exp-tma.cl "" TMA_A=1 STAGES=4 CHUNK=16
run base2 kernels.cl ""
cd $OUT && tar czf q6.tgz q6 && rm -rf q6
