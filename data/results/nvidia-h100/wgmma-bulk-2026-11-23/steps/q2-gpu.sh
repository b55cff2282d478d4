#!/usr/bin/env bash
# Probes of tc-3xtf32-wg at 8192^3 (unverified where they change the arithmetic).
set -u
source .gpu/opencl-env.sh .gpu/deb > /dev/null
export CLGEMM_STORE=$PWD/.gpu/store-empty; mkdir -p $CLGEMM_STORE
r=$OUT/q2; mkdir -p $r
run() { # label, kernel, extra args, defines
  local lab=$1 k=$2 x=$3; shift 3
  D=""; for kv in "$@"; do D="$D -D $kv"; done
  echo "== $lab: $*" >> $r/cfg.txt
  timeout 100 .gpu/build/clgemm --kernels .gpu/exp-probe.cl --kernel $k $x $D --sizes 8192 --reps 10 2>&1 | grep -E "^tc-[a-z0-9-]+ +(3xtf32|tf32|[0-9]+ \()|error" >> $r/cfg.txt
}
run base tc-3xtf32-wg ""
run mmas2 tc-3xtf32-wg --no-check PROBE_MMAS=2
run mmas1 tc-3xtf32-wg --no-check PROBE_MMAS=1
run noA tc-3xtf32-wg --no-check PROBE_NOA=1
run halfB tc-3xtf32-wg --no-check PROBE_HALFB=1
run noA-halfB tc-3xtf32-wg --no-check PROBE_NOA=1 PROBE_HALFB=1
run 192-halfB tc-3xtf32-wg --no-check BM=192 PROBE_HALFB=1
run 192-noA tc-3xtf32-wg --no-check BM=192 PROBE_NOA=1
run 192-mmas2 tc-3xtf32-wg --no-check BM=192 PROBE_MMAS=2
run 192-chunk16 tc-3xtf32-wg "" BM=192 CHUNK=16
run 192-g8 tc-3xtf32-wg "" BM=192 GROUP_M=8
run tf32wg-64x128 tc-tf32-wg "" BM=64 BN=128
run tf32wg-base tc-tf32-wg ""
run base2 tc-3xtf32-wg ""
cd $OUT && tar czf q2.tgz q2 && rm -rf q2
