# #26 FP64 on the GPU: the FP64 peak, every OpenCL kernel and baseline in FP64 in all eight shapes
# at an odd size, best in FP64 at 4096 and 8192 on its defaults, tuned at each size, and again
# with the tuned entries, beside CLBlast's and cuBLAS's DGEMM.
source .gpu/s/common.sh
export CLGEMM_DATA=$PWD/data
S=$R/store; mkdir -p $S
SH="--layout row,col --trans-a n,t --trans-b n,t"
$B peak --store $S --progress off > $R/peak.txt 2>&1; echo "peak rc=$?"; grep -E 'peak FP' $R/peak.txt
$B $K --kernel cl --compare clblast,openblas,cublas --precision fp64 -m 333 -n 170 -k 91 $SH \
  --lda 400 --ldb 401 --ldc 402 --alpha 1.5 --beta -0.5 --format csv --out $R/check-odd.csv --progress off 2> $R/check-odd.err
echo "check-odd rc=$?"
$B $K --kernel best --compare clblast,cublas --precision fp64 --sizes 4096,8192 --store $S \
  --format csv --out $R/defaults.csv --progress off 2> $R/defaults.err; echo "defaults rc=$?"
for s in 4096 8192; do
  $B tune $K --kernel best --precision fp64 --size $s --time ${TUNE_S:-100} --store $S --format json \
    --out $R/tune-$s.json --progress off 2> $R/tune-$s.err; echo "tune $s rc=$?"
done
$B $K --kernel best --compare clblast,cublas --precision fp64 --sizes 4096,8192 --store $S \
  --format csv --out $R/tuned.csv --progress off 2> $R/tuned.err; echo "tuned rc=$?"
python3 - <<'PY'
import csv,glob
for f in sorted(glob.glob('/tmp/r/*.csv')):
    rows=list(csv.DictReader(open(f)))
    print(f.split('/')[-1], 'rows', len(rows), 'ok', sum(r['status']=='ok' for r in rows))
    for r in rows:
        if r['status'] not in ('ok','skipped'): print('  NOT OK', r['variant'], r['layout'], r['trans_a'], r['trans_b'], r['status'], r['message'][:200])
    if 'check' in f: continue
    for r in rows:
        print(' ', r['variant'], r['precision'], r['layout'], r['trans_a']+r['trans_b'], r['m'], r['status'], r['gflops'], r['err_ratio'], r['defines'][:90])
PY
ls $S/params
tar czf $OUT/fp64.tgz -C /tmp r
