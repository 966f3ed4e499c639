#!/usr/bin/env bash
# Assembles the CUDA compiler of one release (nvcc, cicc, libdevice, crt and runtime headers,
# the runtime libraries, CCCL's headers) from its PyPI wheels into DIR, so that a CUB
# reference is built by the ptxas the GPU machine's nvJitLink runs on coop's kernels: a
# benchmark table compares code generation only where both sides share one ptxas release
# (the header of numba_reduce_scan.py names both). Needs pip and the package index, no GPU.
#
#   bash benchmarks/reference/cuda_release.sh 13.0 /tmp/cuda-13.0
#   PATH=/tmp/cuda-13.0/bin:$PATH python benchmarks/numba_reduce_scan.py DIR ...
#
# (The benchmark builds DIR/cub_reduce_scan with the nvcc on PATH when DIR has none.) Each
# package is the newest of the release (MAJOR.MINOR); the H200 machine runs 13.0.88.
set -euo pipefail
release=${1:?usage: cuda_release.sh MAJOR.MINOR DIR}
dir=${2:?usage: cuda_release.sh MAJOR.MINOR DIR}
[[ $release =~ ^[0-9]+\.[0-9]+$ ]] || { echo "release must be MAJOR.MINOR, e.g. 13.0" >&2; exit 2; }
wheels=$(mktemp -d)
trap 'rm -rf "$wheels"' EXIT
for package in nvidia-cuda-nvcc nvidia-nvvm nvidia-cuda-crt nvidia-cuda-runtime nvidia-cuda-cccl; do
  python3 -m pip download --quiet --no-deps --dest "$wheels" "$package==$release.*"
done
mkdir -p "$dir"
for wheel in "$wheels"/*.whl; do
  python3 -m zipfile -e "$wheel" "$wheels/unpacked"
done
major=${release%%.*}
cp -a "$wheels/unpacked/nvidia/cu$major/." "$dir/"
chmod +x "$dir"/bin/* "$dir"/nvvm/bin/*
# nvcc.profile names lib64 for the runtime libraries; the wheels put them in lib.
[[ -e $dir/lib64 ]] || ln -s lib "$dir/lib64"
"$dir/bin/nvcc" --version | grep release
