# Why is best's TRANS_A (kernel-view TN, TT) 13-16% slower than NN at 4096 on the H100?
source .gpu/s/common.sh
export PATH=$PATH:/usr/local/cuda/bin:/opt/nvidia/nsight-compute/2025.3.1
export CLGEMM_DATA=$PWD/data
D=/tmp/r/diag; mkdir -p $D
SH="--layout row --trans-a n,t --trans-b n,t"
sweep() {  # name, defines...
  local name=$1; shift
  $B $K --kernel best "$@" --size 4096 $SH --reps 10 --format csv --out $D/sw-$name.csv --progress off 2> $D/sw-$name.err
  python3 - $D/sw-$name.csv $name <<'PY'
import csv,sys
rows=list(csv.DictReader(open(sys.argv[1]))); g={r['trans_a']+r['trans_b']:float(r['gflops'])/1000 for r in rows if r['status']=='ok'}
bad=[r['status'] for r in rows if r['status']!='ok']
nn=g.get('nn',0); print('%-10s'%sys.argv[2], ' '.join('%s %.2f(%.2f)'%(k.upper(),v,v/nn if nn else 0) for k,v in g.items()), 'regs', rows[0]['registers'] if rows else '', bad)
PY
}
E="-D BM=256 -D BN=64 -D BK=8 -D TM=16 -D TN=8 -D PADB=0"
sweep entry
sweep entry2
sweep bk16 $E -D BK=16 -D PADA=4 -D GROUP_M=16
sweep pada0 $E -D PADA=0 -D GROUP_M=16
sweep pada8 $E -D PADA=8 -D GROUP_M=16
sweep g8 $E -D PADA=4 -D GROUP_M=8
sweep g4 $E -D PADA=4 -D GROUP_M=4
sweep g1 $E -D PADA=4 -D GROUP_M=1
sweep 128x128k8 -D BM=128 -D BN=128 -D BK=8 -D TM=8 -D TN=8 -D PADA=4 -D PADB=4 -D GROUP_M=16
sweep 128x128k16 -D BM=128 -D BN=128 -D BK=16 -D TM=8 -D TN=8 -D PADA=4 -D PADB=4 -D GROUP_M=16
sweep 64x256 -D BM=64 -D BN=256 -D BK=8 -D TM=8 -D TN=16 -D PADA=4 -D PADB=4 -D GROUP_M=16
sweep 128x64 -D BM=128 -D BN=64 -D BK=8 -D TM=8 -D TN=8 -D PADA=4 -D PADB=4 -D GROUP_M=16
for v in .gpu/kv/*.cl; do [ -e "$v" ] || continue; n=$(basename $v .cl)
  K="--kernels $PWD/$v" sweep kv-$n; done
# PTX and SASS of the entry, NN and TN
P="-D CLGEMM_ONE_KERNEL -D KERNEL_gemm_best -D BM=256 -D BN=64 -D BK=8 -D TM=16 -D TN=8 -D PADA=4 -D PADB=0 -D GROUP_M=16 -D EDGE=0 -D VEC_A=1 -D VEC_B=1 -D VEC_C=1 -D TRANS_B=0"
for ta in 0 1; do .gpu/ptx/dump kernels.cl $D/ta$ta.ptx "$P -D TRANS_A=$ta -cl-nv-verbose" 2> $D/ta$ta.log
  ptxas -arch=sm_90 -v $D/ta$ta.ptx -o $D/ta$ta.cubin 2>> $D/ta$ta.log; cuobjdump -sass $D/ta$ta.cubin > $D/ta$ta.sass; tail -3 $D/ta$ta.log; done
# tuner, kernel view TN and TT
S=/tmp/store; mkdir -p $S
for tb in n t; do timeout 150 $B tune $K --store $S --kernel best --size 4096 --trans-a t --trans-b $tb --time 95 --progress on --format json --out $D/tune-t$tb.json 2> $D/tune-t$tb.err; echo "tune t$tb rc=$?"; tail -4 $D/tune-t$tb.err; done
cp -r $S/params $D/store-params 2>/dev/null; ls $S/params
for sz in 4096 8192; do sweep_out=$D/st-$sz.csv
  $B $K --kernel best --store $S --size $sz $SH --format csv --out $sweep_out --progress off 2> $D/st-$sz.err
  python3 -c "
import csv; rows=list(csv.DictReader(open('$sweep_out'))); nn=[float(r['gflops']) for r in rows if r['trans_a']+r['trans_b']=='nn'][0]
for r in rows: print('$sz', r['trans_a']+r['trans_b'], r['status'], '%.2f %.3f'%(float(r['gflops'])/1000, float(r['gflops'])/nn), r['defines'][:80])"
done
# counters, if ncu profiles OpenCL
for ta in n t; do timeout 100 ncu --launch-count 1 -k regex:gemm_best --section WarpStateStats --section SchedulerStats --section MemoryWorkloadAnalysis --metrics l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,smsp__inst_executed.sum,lts__t_sectors_srcunit_tex_op_read.sum,dram__bytes_read.sum \
  $B $K --kernel best --size 4096 --trans-a $ta --warmup 0 --reps 1 --no-check --progress off > $D/ncu-$ta.txt 2>&1; echo "ncu $ta rc=$?"; grep -i -E 'stall|bank|inst_executed|dram__bytes|lts__t|Warp Cycles|Eligible|Issued Warp' $D/ncu-$ta.txt | head -30; done
tar czf $OUT/diag.tgz -C /tmp/r diag
