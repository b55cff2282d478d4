# The final tree: best FP32 (NN, TN) and FP64 at 4096 and 8192, to confirm nothing moved since the
# recorded runs (e230a2e for FP32, 63899cf for FP64).
source .gpu/s/common.sh
export CLGEMM_DATA=$PWD/data
$B $K --kernel best --compare cublas --sizes 4096,8192 --trans-a n,t --precision fp32,fp64 \
  --format csv --out $R/final.csv --progress off 2> $R/final.err; echo "rc=$?"
python3 - <<'PY'
import csv
for r in csv.DictReader(open('/tmp/r/final.csv')):
    print(r['variant'], r['precision'], r['trans_a']+r['trans_b'], r['m'], r['status'], r['gflops'], r['err_ratio'])
PY
tar czf $OUT/final.tgz -C /tmp r
