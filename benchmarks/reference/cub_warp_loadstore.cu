// CUB WarpLoad/WarpStore tile copy throughput: the C++ reference for cuda.coop's
// warp-level load/store (physical warps, width 32, and logical warps of 8).
// Build: nvcc -O3 -arch=sm_90 -std=c++17 cub_warp_loadstore.cu -o cub_warp_loadstore
// Same data, timing and output format as cub_loadstore.cu, plus the width.
#include <cub/warp/warp_load.cuh>
#include <cub/warp/warp_store.cuh>
#include <cstdio>
#include <cstdint>
#include <vector>

template <typename T, int BLOCK, int IPT, int WIDTH, cub::WarpLoadAlgorithm LA,
          cub::WarpStoreAlgorithm SA>
__global__ void warp_copy_kernel(const T* __restrict__ in, T* __restrict__ out, int n) {
  constexpr int WARPS = BLOCK / WIDTH;
  using Load = cub::WarpLoad<T, IPT, LA, WIDTH>;
  using Store = cub::WarpStore<T, IPT, SA, WIDTH>;
  __shared__ union {
    typename Load::TempStorage load[WARPS];
    typename Store::TempStorage store[WARPS];
  } tmp;
  int warp = threadIdx.x / WIDTH;
  T items[IPT];
  long tile = (long)blockIdx.x * BLOCK * IPT + (long)warp * WIDTH * IPT;
  int valid = (int)max(0L, min((long)WIDTH * IPT, (long)n - tile));
  if (valid == WIDTH * IPT)
    Load(tmp.load[warp]).Load(in + tile, items);
  else
    Load(tmp.load[warp]).Load(in + tile, items, valid, T(0));
  __syncwarp();
  if (valid == WIDTH * IPT)
    Store(tmp.store[warp]).Store(out + tile, items);
  else
    Store(tmp.store[warp]).Store(out + tile, items, valid);
}

template <typename T, int BLOCK, int IPT, int WIDTH, cub::WarpLoadAlgorithm LA,
          cub::WarpStoreAlgorithm SA>
void run(const char* name, T* din, T* dout, int n, const std::vector<T>& h) {
  int tile = BLOCK * IPT, grid = (n + tile - 1) / tile;
  warp_copy_kernel<T, BLOCK, IPT, WIDTH, LA, SA><<<grid, BLOCK>>>(din, dout, n);
  cudaDeviceSynchronize();
  std::vector<T> back(n);
  cudaMemcpy(back.data(), dout, n * sizeof(T), cudaMemcpyDeviceToHost);
  bool ok = true;
  for (int i = 0; i < n; i += 997) ok &= back[i] == h[i];
  ok &= back[n - 1] == h[n - 1];
  cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
  const int reps = 20;
  cudaEventRecord(a);
  for (int r = 0; r < reps; ++r)
    warp_copy_kernel<T, BLOCK, IPT, WIDTH, LA, SA><<<grid, BLOCK>>>(din, dout, n);
  cudaEventRecord(b); cudaEventSynchronize(b);
  float ms; cudaEventElapsedTime(&ms, a, b);
  double gbs = 2.0 * n * sizeof(T) * reps / (ms * 1e6);
  printf("%-28s %-6s block=%4d ipt=%2d width=%2d  %8.1f GB/s  %s\n", name,
         sizeof(T) == 4 ? "int32" : "f64", BLOCK, IPT, WIDTH, gbs, ok ? "ok" : "WRONG");
}

#define WARP_ALGS(T, B, I, W)                                                                   \
  run<T, B, I, W, cub::WARP_LOAD_DIRECT, cub::WARP_STORE_DIRECT>("direct", din, dout, n, h);    \
  run<T, B, I, W, cub::WARP_LOAD_STRIPED, cub::WARP_STORE_STRIPED>("striped", din, dout, n, h); \
  run<T, B, I, W, cub::WARP_LOAD_VECTORIZE, cub::WARP_STORE_VECTORIZE>("vectorize", din, dout,  \
                                                                        n, h);                  \
  run<T, B, I, W, cub::WARP_LOAD_TRANSPOSE, cub::WARP_STORE_TRANSPOSE>("transpose", din, dout,  \
                                                                        n, h);

template <typename T> void suite(int n) {
  std::vector<T> h(n);
  for (int i = 0; i < n; ++i) h[i] = T(i % 1000003);
  T *din, *dout;
  cudaMalloc(&din, n * sizeof(T)); cudaMalloc(&dout, n * sizeof(T));
  cudaMemcpy(din, h.data(), n * sizeof(T), cudaMemcpyHostToDevice);
  WARP_ALGS(T, 128, 4, 32) WARP_ALGS(T, 256, 8, 32) WARP_ALGS(T, 128, 4, 8) WARP_ALGS(T, 256, 8, 8)
  cudaFree(din); cudaFree(dout);
}

int main() {
  const int n = (1 << 28) - 12345;  // ~1 GiB of int32, ragged last tile
  suite<int32_t>(n);
  suite<double>(n / 2);
  return 0;
}
