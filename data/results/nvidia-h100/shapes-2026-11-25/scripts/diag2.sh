source .gpu/s/common.sh
export CLGEMM_DATA=$PWD/data
D=/tmp/r/diag2; mkdir -p $D
SH="--layout row --trans-a n,t --trans-b n,t"
sweep() {  # name size kernels defines...
  local name=$1 sz=$2 kf=$3; shift 3
  $B --kernels $PWD/$kf --kernel best "$@" --size $sz $SH --format csv --out $D/sw-$name-$sz.csv --progress off 2> $D/sw-$name-$sz.err
  python3 - $D/sw-$name-$sz.csv $name-$sz <<'PY'
import csv,sys
rows=list(csv.DictReader(open(sys.argv[1]))); g={r['trans_a']+r['trans_b']:(float(r['gflops'])/1000,r['registers'],r['occupancy_groups']) for r in rows if r['status']=='ok'}
bad=[r['status']+r['message'][:100] for r in rows if r['status']!='ok']
nn=g.get('nn',(0,))[0]; print('%-16s'%sys.argv[2], ' '.join('%s %.2f(%.2f r%s o%s)'%(k.upper(),v[0],v[0]/nn if nn else 0,v[1],v[2]) for k,v in g.items()), bad)
PY
}
sweep shipped 4096 kernels.cl
sweep lines4 4096 .gpu/kv2/lines4.cl
sweep lines2 4096 .gpu/kv2/lines2.cl
E="-D BM=256 -D BN=64 -D BK=8 -D TM=16 -D TN=8 -D PADA=4 -D PADB=0 -D GROUP_M=16"
sweep entry-lines4 4096 .gpu/kv2/lines4.cl $E
sweep e64x256 4096 kernels.cl -D BM=64 -D BN=256 -D BK=8 -D TM=8 -D TN=16 -D PADA=4 -D PADB=4 -D GROUP_M=16
sweep e64x256-lines4 4096 .gpu/kv2/lines4.cl -D BM=64 -D BN=256 -D BK=8 -D TM=8 -D TN=16 -D PADA=4 -D PADB=4 -D GROUP_M=16
T="-D BM=128 -D BN=128 -D BK=8 -D TM=8 -D TN=8 -D PADA=0 -D PADB=0 -D GROUP_M=16"
sweep tt128 4096 kernels.cl $T
sweep tt128 8192 kernels.cl $T
sweep tt128-lines4 4096 .gpu/kv2/lines4.cl $T
tar czf $OUT/diag2.tgz -C /tmp/r diag2
