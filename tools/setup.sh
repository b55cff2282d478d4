#!/usr/bin/env bash
# Install the Debian packages clgemm builds and tests with, when missing.
# Idempotent: does nothing when everything is present. Uses sudo only when not root.
set -euo pipefail

packages=(
  build-essential cmake pkg-config
  opencl-clhpp-headers opencl-c-headers ocl-icd-opencl-dev clinfo
  pocl-opencl-icd oclgrind
  libcxxopts-dev libgtest-dev nlohmann-json3-dev
  libclblast-dev libopenblas-dev
  libblas-test  # netlib's BLAS test programs (xblat3s ...), run through the BLAS shim
  python3 python3-numpy python3-matplotlib
  clang libclang-rt-14-dev  # the fuzz targets: Debian 12's clang 14 and its libFuzzer runtime
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "clgemm setup: installing ${missing[*]}" >&2
sudo=()
[ "$(id -u)" -eq 0 ] || sudo=(sudo)
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
