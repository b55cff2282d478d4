#!/usr/bin/env bash
# Probe: B copied raw (one plane) and split in local memory by the work-items.
set -u
source .gpu/opencl-env.sh .gpu/deb > /dev/null
export CLGEMM_STORE=$PWD/.gpu/store-empty; mkdir -p $CLGEMM_STORE
r=$OUT/q3; mkdir -p $r
run() { # label, file, extra args, defines
  local lab=$1 f=$2 x=$3; shift 3
  D=""; for kv in "$@"; do D="$D -D $kv"; done
  echo "== $lab: $*" >> $r/cfg.txt
  timeout 100 .gpu/build/clgemm --kernels $f --kernel tc-3xtf32-wg $x $D --sizes 8192 --reps 10 2>&1 | grep -E "^tc-[a-z0-9-]+ +(3xtf32|tf32|[0-9]+ \()|error" >> $r/cfg.txt
}
run base kernels.cl ""
for s in 5 6 7; do for e in 0 1; do
  run "bsplit S$s early$e" .gpu/exp-bsplit.cl --no-check STAGES=$s SPLIT_EARLY=$e
done; done
run "bsplit 192 S5" .gpu/exp-bsplit.cl --no-check BM=192 STAGES=5
run "bsplit 192 S5 early" .gpu/exp-bsplit.cl --no-check BM=192 STAGES=5 SPLIT_EARLY=1
run "bsplit S7 chunk16" .gpu/exp-bsplit.cl --no-check STAGES=7 CHUNK=16
run "bsplit 64x64 S7" .gpu/exp-bsplit.cl --no-check BN=64 STAGES=7
run base2 kernels.cl ""
timeout 60 .gpu/build/clgemm --kernels .gpu/exp-bsplit.cl --kernel tc-3xtf32-wg -D STAGES=7 --no-check --size 1024 --build-log --cl-options -cl-nv-verbose > $r/build-log.txt 2>&1
cd $OUT && tar czf q3.tgz q3 && rm -rf q3
