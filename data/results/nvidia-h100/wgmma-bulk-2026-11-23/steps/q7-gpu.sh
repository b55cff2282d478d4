#!/usr/bin/env bash
# Bulk-copy tc-3xtf32-wg (working tree); double-buffered A parts (exp-db); tc-tf32-wg on bulk copies.
set -u
source .gpu/opencl-env.sh .gpu/deb > /dev/null
export CLGEMM_STORE=$PWD/.gpu/store-empty; mkdir -p $CLGEMM_STORE
r=$OUT/q7; mkdir -p $r
run() { # label, file, kernel, extra args, defines
  local lab=$1 f=$2 k=$3 x=$4; shift 4
  D=""; for kv in "$@"; do D="$D -D $kv"; done
  echo "== $lab: $*" >> $r/cfg.txt
  timeout 100 .gpu/build/clgemm --kernels $f --kernel $k $x $D --sizes 8192 --reps 10 2>&1 | grep -E "^tc-[a-z0-9-]+ +(3xtf32|tf32|[0-9]+ \()|error" >> $r/cfg.txt
}
B=".gpu/build/clgemm --kernels kernels.cl"
timeout 60 $B --kernel tc-3xtf32-wg --size 1024 --build-log --cl-options -cl-nv-verbose > $r/build-log.txt 2>&1
timeout 60 .gpu/build/clgemm --kernels .gpu/exp-db.cl --kernel tc-3xtf32-wg --size 1024 --build-log --cl-options -cl-nv-verbose > $r/build-log-db.txt 2>&1
timeout 60 .gpu/build/clgemm --kernels .gpu/exp-tma-tf32.cl --kernel tc-tf32-wg --size 1024 --build-log --cl-options -cl-nv-verbose > $r/build-log-tf32.txt 2>&1
timeout 90 $B --kernel tc-3xtf32-wg --alpha 1.5 --beta 0.5 --sizes 64x128x8,100x100x16,300x200x24,1000,1023x517x333,257x4097x129 --check full --reps 2 > $r/odd.txt 2>&1; echo "odd rc=$?" >> $r/odd.txt
timeout 90 .gpu/build/clgemm --kernels .gpu/exp-db.cl --kernel tc-3xtf32-wg --alpha 1.5 --beta 0.5 --sizes 64x128x8,100x100x16,300x200x24,1023x517x333,257x4097x129 --check full --reps 2 > $r/odd-db.txt 2>&1; echo "odd rc=$?" >> $r/odd-db.txt
timeout 90 .gpu/build/clgemm --kernels .gpu/exp-tma-tf32.cl --kernel tc-tf32-wg --alpha 1.5 --beta 0.5 --sizes 64x128x8,300x200x24,1023x517x333,257x4097x129 --check full --reps 2 > $r/odd-tf32.txt 2>&1; echo "odd rc=$?" >> $r/odd-tf32.txt
run new kernels.cl tc-3xtf32-wg ""
run new-c16 kernels.cl tc-3xtf32-wg "" CHUNK=16
run new-64x64-s6 kernels.cl tc-3xtf32-wg "" BN=64 STAGES=6
run new-128x64-s4 kernels.cl tc-3xtf32-wg "" BM=128 BN=64
run new-g8 kernels.cl tc-3xtf32-wg "" GROUP_M=8
run db .gpu/exp-db.cl tc-3xtf32-wg ""
run db-c16 .gpu/exp-db.cl tc-3xtf32-wg "" CHUNK=16
run tf32-cpasync kernels.cl tc-tf32-wg ""
run tf32-tma .gpu/exp-tma-tf32.cl tc-tf32-wg ""
run tf32-tma-s4 .gpu/exp-tma-tf32.cl tc-tf32-wg "" STAGES=4
run tf32-tma-64x256 .gpu/exp-tma-tf32.cl tc-tf32-wg "" BM=64 BN=256
run tf32-tma-128x256-s3 .gpu/exp-tma-tf32.cl tc-tf32-wg "" BN=256 STAGES=3
run new2 kernels.cl tc-3xtf32-wg ""
run db2 .gpu/exp-db.cl tc-3xtf32-wg ""
cd $OUT && tar czf q7.tgz q7 && rm -rf q7
