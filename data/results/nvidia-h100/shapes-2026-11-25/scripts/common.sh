set -uo pipefail
source .gpu/opencl-env.sh .gpu/deb >/dev/null
B=$PWD/.gpu/build/clgemm
K="--kernels $PWD/kernels.cl"
R=/tmp/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu --format=csv > $R/gpu.txt 2>&1
dflags() { python3 -c "import json,sys; print(' '.join('-D %s=%s'%(k,v) for k,v in sorted(json.load(open(sys.argv[1]))['defines'].items())))" $1; }
