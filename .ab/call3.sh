#!/usr/bin/env bash
# build, the GPU test programs
set -u
export LW_COMMIT=$(cat .ab/commit)
B=$PWD/build-dev
t0=$(date +%s)
cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DLW_CUDA_SCHEMES=OFF -DLW_GIT_COMMIT=$LW_COMMIT > $OUT/build.log 2>&1
cmake --build $B -j16 --target liftwave test_gpu test_gpu_inplace test_gpu_half >> $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
echo "build $(( $(date +%s)-t0 ))s commit $LW_COMMIT"
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader
T=$B/tests/gpu
step() { local n=$1; shift; local t=$(date +%s); timeout ${TO:-120} "$@" > $OUT/$n.log 2>&1; echo "$n rc=$? $(( $(date +%s)-t ))s: $(tail -1 $OUT/$n.log)"; grep -E "^(engine|in-place|random|fixed|FAIL|timing|refusal)" $OUT/$n.log | head -${H:-20}; }
TO=150 step test-inplace $T/test_gpu_inplace
TO=60 step test-half $T/test_gpu_half
LW_GPU_BIG=0 LW_GPU_CASES=1000 TO=150 H=30 step test-gpu $T/test_gpu
echo "total $(( $(date +%s)-t0 ))s"
