# #26 on the GPU. Part "check": every OpenCL kernel and baseline in all eight shapes with gaps at an
# odd size. Part "perf": best in every shape beside CLBlast and cuBLAS at 4096 and 8192 (two rounds),
# leading dimensions aligned and not, a ladder kernel through its timed copies.
source .gpu/s/common.sh
export CLGEMM_DATA=$PWD/data
SH="--layout row,col --trans-a n,t --trans-b n,t"
if [ "$1" = check ]; then
  $B $K --kernel cl,cpu-packed --compare cublas,cublas-tf32,clblast,openblas -m 333 -n 170 -k 91 $SH \
    --lda 400 --ldb 401 --ldc 402 --alpha 1.5 --beta -0.5 --format csv --out $R/check-odd.csv --progress off 2> $R/check-odd.err
  echo "check-odd rc=$?"
  $B $K --kernel best,tc-tf32,tc-3xtf32,tc-tf32-wg,tc-3xtf32-wg -m 1000 -n 1100 -k 900 $SH \
    --lda 1204 --ldb 1201 --ldc 1202 --beta 0.5 --format csv --out $R/check-tc.csv --progress off 2> $R/check-tc.err
  echo "check-tc rc=$?"
  $B $K --kernel best,tc-tf32-wg,tc-3xtf32-wg --compare clblast,cublas,cublas-tf32 --size 4096 $SH \
    --format csv --out $R/perf-4096-r1.csv --progress off 2> $R/perf-4096-r1.err
  echo "perf-4096 rc=$?"
fi
if [ "$1" = perf ]; then
  # Before: TN and TT on the NN entries (what they got before the TN and TT entries), same run.
  for sz in 4096 8192; do
    if [ $sz = 4096 ]; then PB=0; else PB=8; fi
    $B $K --kernel best -D BM=256 -D BN=64 -D BK=8 -D TM=16 -D TN=8 -D PADA=4 -D PADB=$PB -D GROUP_M=16 \
      --size $sz --layout row --trans-a t --trans-b n,t --format csv --out $R/before-$sz.csv --progress off 2> $R/before-$sz.err
    echo "before $sz rc=$?"
  done
  for round in 1 2; do
    $B $K --kernel best --compare clblast,cublas --size 8192 $SH \
      --format csv --out $R/perf-8192-r$round.csv --progress off 2> $R/perf-8192-r$round.err
    echo "round $round 8192 rc=$?"
  done
  $B $K --kernel best --compare clblast,cublas --size 4096 $SH \
    --format csv --out $R/perf-4096-r2.csv --progress off 2> $R/perf-4096-r2.err; echo "4096 r2 rc=$?"
  $B $K --kernel best --compare clblast,cublas --size 4096 --trans-a n,t --trans-b n,t \
    --lda 4100 --ldb 4100 --ldc 4100 --format csv --out $R/ld4100.csv --progress off 2> $R/ld4100.err; echo "ld4100 rc=$?"
  $B $K --kernel best --compare clblast,cublas --size 4096 --trans-a n,t --trans-b n,t \
    --lda 4097 --ldb 4097 --ldc 4097 --format csv --out $R/ld4097.csv --progress off 2> $R/ld4097.err; echo "ld4097 rc=$?"
  $B $K --kernel regtile2d --size 4096 $SH --format csv --out $R/ladder-copy.csv --progress off 2> $R/ladder-copy.err; echo "ladder rc=$?"
fi
python3 - <<'PY'
import csv,glob
for f in sorted(glob.glob('/tmp/r/*.csv')):
    rows=list(csv.DictReader(open(f)))
    print(f.split('/')[-1])
    bad=[r for r in rows if r['status'] not in ('ok',)]
    for r in bad: print('  NOT OK', r['variant'], r['layout'], r['trans_a'], r['trans_b'], r['status'], r['message'][:200])
    if 'check' in f: print('  rows', len(rows), 'ok', sum(r['status']=='ok' for r in rows)); continue
    for r in rows:
        print(' ', r['variant'], r['layout'], r['trans_a']+r['trans_b'], r['lda'], r['m'], r['status'], r['gflops'], r['err_ratio'])
PY
tar czf $OUT/shapes-$1.tgz -C /tmp r
