// CUB-composed select: the C++ reference for cuda.coop's `select` (an order-preserving
// compaction of a group's tile). CUB has no public block or warp select; this is what CUB users
// write instead: a count of the thread's set flags, one exclusive sum of the counts, each thread
// scattering its selected items into shared memory at its offset, and each thread reading the
// compacted tile back in blocked order.
// Build: nvcc -O3 -arch=sm_90 -std=c++17 cub_select.cu -o cub_select
//
// Modes (width 0 = block):
//   block_select  cub::BlockScan<int, BLOCK>::ExclusiveSum(count, offset, total); __syncthreads()
//                 (the tile reuses the scan's TempStorage: a union); the selected items to
//                 tile[offset++]; __syncthreads(); item i of thread t = tile[t * IPT + i].
//   warp_select   cub::WarpScan<int, WIDTH>::ExclusiveSum(count, offset, total) in each logical
//                 warp; the selected items into the warp's own WIDTH * IPT region of the tile;
//                 __syncwarp(); item i of lane l = region[l * IPT + i]. WIDTH 32 and 8.
// The count (total) is the group's, in every thread; items at or past it are unspecified (here:
// whatever the tile held).
//
// Every configuration is run by two kernels, the items loaded and stored blocked
// (cub::LoadDirectBlocked, StoreDirectBlocked; a logical warp's tile is then its blocked slice
// of the block's):
//
//   tile: ~1 GiB (1<<28 int32 or 1<<27 f64, full tiles only), one tile per block: load ->
//         flags (an item is kept where it is odd: x & 1 for int32, (int)x & 1 for f64) ->
//         select -> store the compacted tile, and the group's count to counts[group] (one count
//         per block, or per logical warp). Reported as GB/s of the input (bytes / median time).
//   loop: grid G (default 8192) blocks, one tile each: load once, then R (default 64) times
//         { flags from the current items (as tile's); select; item i of the thread of rank t in
//         its group = t * IPT + i < count ? selected[i] + threadIdx.x : item i; reuse barrier },
//         store once. Also run with R = 0 (load + store only); reported as
//         ns/op = (t(R) - t(0)) * SMs / (G * R): the SM-time one select step takes (with its
//         flags and the update).
//
// The reuse barrier at the end of a loop iteration is the one CUB users must write before the
// next iteration's scan (or scatter) writes the storage the compacted tile is being read from:
// __syncthreads() for block_select, __syncwarp() for warp_select.
//
// The input is a hash of the position, (uint32)(j * 2654435761) >> 12 (below 2^20; about half
// of a tile's items odd, in no regular pattern).
//
// Usage:
//   cub_select                        everything, after a cudaMemcpy D2D anchor line
//   cub_select list                   the configurations: kernel mode dtype block ipt width
//   cub_select KERNEL [MODE [DTYPE [BLOCK [IPT [WIDTH]]]]]   filters; "all" matches anything
//   options anywhere: --runs=N (21) --warmup=N (3) --reps=R (64) --grid=G (8192) --anchor
// Output: a header line "# cub_select: SMs=132 runs=21 warmup=3 loop reps=64 grid=8192", the
// anchor line when asked (as in cub_loadstore.cu), then one line per configuration, e.g.
//   tile block_select           int32 block= 128 ipt= 4 width= 0 ms=   0.2600 GB/s=  4200.0 temp=  2048 OK
//   loop block_select           int32 block= 128 ipt= 4 width= 0 ms=   0.5678 base_ms=   0.0123 ns/op=   12.345 temp=  2048 OK
// ms is the median of --runs launches after --warmup, each timed with its own cudaEvent pair;
// temp is sizeof the kernel's __shared__ storage (per block: the scan's TempStorage and the tile,
// a union); OK/FAIL compares sampled tiles (every 97th and the last) with a host model: the
// selected items and the counts of tile rows (not the unspecified items past the count), the
// whole output of loop rows.
#include <cub/block/block_load.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/block/block_store.cuh>
#include <cub/warp/warp_scan.cuh>

#include "reference_harness.cuh"

// The flag of an item: 1 where it is odd (the items are never negative: (int)x is floor(x)).
__host__ __device__ __forceinline__ int odd(int32_t x) { return x & 1; }
__host__ __device__ __forceinline__ int odd(double x) { return (int)x & 1; }

// ---- modes ------------------------------------------------------------------------------------
// Each mode: name, width (0: block), Impl<T, B, I> with Storage, select (registers a with flags
// -> compacted b, returns the group's count) and sync() (the reuse barrier).

struct block_select {
  static constexpr const char* name = "block_select";
  static constexpr int width = 0;
  template <typename T, int B, int I>
  struct Impl {
    using Scan = cub::BlockScan<int, B>;
    union Storage {
      typename Scan::TempStorage scan;
      T tile[B * I];
    };
    static __device__ int select(Storage& s, const T (&a)[I], const int (&flags)[I], T (&b)[I]) {
      int count = 0;
#pragma unroll
      for (int i = 0; i < I; ++i) count += flags[i] != 0;
      int offset, total;
      Scan(s.scan).ExclusiveSum(count, offset, total);
      __syncthreads();  // the tile reuses the scan's storage
#pragma unroll
      for (int i = 0; i < I; ++i)
        if (flags[i]) s.tile[offset++] = a[i];
      __syncthreads();
#pragma unroll
      for (int i = 0; i < I; ++i) b[i] = s.tile[threadIdx.x * I + i];
      return total;
    }
    static __device__ void sync() { __syncthreads(); }
  };
};

template <int W>
struct warp_select {
  static constexpr const char* name = "warp_select";
  static constexpr int width = W;
  template <typename T, int B, int I>
  struct Impl {
    using Scan = cub::WarpScan<int, W>;
    // A power-of-two logical warp's WarpScan is the shuffle scan, whose TempStorage is empty and
    // never touched: the scatter needs no barrier after the scan. The union keeps the storage
    // CUB users declare for it without adding to the tile.
    static_assert((W & (W - 1)) == 0, "WarpScan of a power-of-two width: the shuffle scan");
    union Storage {
      typename Scan::TempStorage scan[B / W];
      T tile[B * I];
    };
    static __device__ int select(Storage& s, const T (&a)[I], const int (&flags)[I], T (&b)[I]) {
      const int w = threadIdx.x / W, lane = threadIdx.x % W;
      int count = 0;
#pragma unroll
      for (int i = 0; i < I; ++i) count += flags[i] != 0;
      int offset, total;
      Scan(s.scan[w]).ExclusiveSum(count, offset, total);
      T* tile = s.tile + w * W * I;
#pragma unroll
      for (int i = 0; i < I; ++i)
        if (flags[i]) tile[offset++] = a[i];
      __syncwarp();
#pragma unroll
      for (int i = 0; i < I; ++i) b[i] = tile[lane * I + i];
      return total;
    }
    static __device__ void sync() { __syncwarp(); }
  };
};

// ---- kernels ----------------------------------------------------------------------------------
template <class M, typename T, int B, int I>
__global__ void tile_kernel(const T* __restrict__ in, T* __restrict__ out,
                            int* __restrict__ counts) {
  using Op = typename M::template Impl<T, B, I>;
  constexpr int G = M::width == 0 ? B : M::width;  // the group's threads
  __shared__ typename Op::Storage storage;
  T a[I], b[I];
  int flags[I];
  const long base = (long)blockIdx.x * B * I;
  cub::LoadDirectBlocked((int)threadIdx.x, in + base, a);
#pragma unroll
  for (int i = 0; i < I; ++i) flags[i] = odd(a[i]);
  const int count = Op::select(storage, a, flags, b);
  cub::StoreDirectBlocked((int)threadIdx.x, out + base, b);
  if (threadIdx.x % G == 0) counts[(long)blockIdx.x * (B / G) + threadIdx.x / G] = count;
}

template <class M, typename T, int B, int I>
__global__ void loop_kernel(const T* __restrict__ in, T* __restrict__ out, int reps) {
  using Op = typename M::template Impl<T, B, I>;
  constexpr int G = M::width == 0 ? B : M::width;  // the group's threads
  __shared__ typename Op::Storage storage;
  T a[I], b[I];
  int flags[I];
  const long base = (long)blockIdx.x * B * I;
  const int first = (threadIdx.x % G) * I;  // the thread's first position in its group's tile
  cub::LoadDirectBlocked((int)threadIdx.x, in + base, a);
#pragma unroll 1
  for (int r = 0; r < reps; ++r) {
#pragma unroll
    for (int i = 0; i < I; ++i) flags[i] = odd(a[i]);
    const int count = Op::select(storage, a, flags, b);
#pragma unroll
    for (int i = 0; i < I; ++i) a[i] = first + i < count ? b[i] + T(threadIdx.x) : a[i];
    Op::sync();
  }
  cub::StoreDirectBlocked((int)threadIdx.x, out + base, a);
}

// ---- host side --------------------------------------------------------------------------------

// The host model of one group's select: the odd items of r[0, n), in order, to o; their count.
template <typename T>
static int host_select(const T* r, int n, T* o) {
  int count = 0;
  for (int j = 0; j < n; ++j)
    if (odd(r[j])) o[count++] = r[j];
  return count;
}

// Tile rows: each sampled tile's groups hold their odd items in order, up to their counts.
template <typename T>
static bool verify_tile(Context& c, int B, int I, int G, long tiles, const int* dcounts) {
  const long tile = (long)B * I;
  std::vector<T> back(tiles * tile);
  std::vector<int> counts(tiles * (B / G));
  CHECK(cudaMemcpy(back.data(), c.dout, back.size() * sizeof(T), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(counts.data(), dcounts, counts.size() * sizeof(int), cudaMemcpyDeviceToHost));
  const std::vector<T>& h = host_input<T>(c);
  std::vector<T> o(G * I);
  for (long k : sampled(tiles))
    for (int g = 0; g < B / G; ++g) {
      const long at = k * tile + (long)g * G * I;
      const int count = host_select(h.data() + at, G * I, o.data());
      if (counts[k * (B / G) + g] != count) return false;
      for (int j = 0; j < count; ++j)
        if (back[at + j] != o[j]) return false;
    }
  return true;
}

// Loop rows: each sampled tile's groups after `reps` select steps, every item.
template <typename T>
static bool verify_loop(Context& c, int B, int I, int G, long tiles, int reps) {
  const long tile = (long)B * I;
  std::vector<T> back(tiles * tile);
  CHECK(cudaMemcpy(back.data(), c.dout, back.size() * sizeof(T), cudaMemcpyDeviceToHost));
  const std::vector<T>& h = host_input<T>(c);
  std::vector<T> r(G * I), o(G * I);
  for (long k : sampled(tiles))
    for (int g = 0; g < B / G; ++g) {
      const long at = k * tile + (long)g * G * I;
      std::copy(h.begin() + at, h.begin() + at + G * I, r.begin());
      for (int rep = 0; rep < reps; ++rep) {
        const int count = host_select(r.data(), G * I, o.data());
        for (int j = 0; j < count; ++j) r[j] = o[j] + T(g * G + j / I);  // + threadIdx.x
      }
      for (int j = 0; j < G * I; ++j)
        if (back[at + j] != r[j]) return false;
    }
  return true;
}

template <class M, typename T, int B, int I>
static void run_tile(Context& c) {
  using Op = typename M::template Impl<T, B, I>;
  constexpr int G = M::width == 0 ? B : M::width;  // the group's threads
  const T* in = input<T>(c);
  T* out = (T*)c.dout;
  const long tiles = (long)(c.bytes / sizeof(T)) / (B * I);
  const long n = tiles * B * I;
  int* counts;
  CHECK(cudaMalloc(&counts, tiles * (B / G) * sizeof(int)));
  CHECK(cudaMemset(out, 0, c.bytes));
  CHECK(cudaMemset(counts, 0xff, tiles * (B / G) * sizeof(int)));
  tile_kernel<M, T, B, I><<<tiles, B>>>(in, out, counts);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  const bool ok = verify_tile<T>(c, B, I, G, tiles, counts);
  const float ms = median_ms(c.opt, [&] { tile_kernel<M, T, B, I><<<tiles, B>>>(in, out, counts); });
  CHECK(cudaFree(counts));
  print_head("tile", M::name, dtype_name<T>(), B, I, M::width);
  printf("ms=%9.4f GB/s=%8.1f temp=%6zu %s\n", ms, 1.0 * n * sizeof(T) / (ms * 1e6),
         sizeof(typename Op::Storage), ok ? "OK" : "FAIL");
  fflush(stdout);
}

template <class M, typename T, int B, int I>
static void run_loop(Context& c) {
  using Op = typename M::template Impl<T, B, I>;
  constexpr int G = M::width == 0 ? B : M::width;  // the group's threads
  const T* in = input<T>(c);
  T* out = (T*)c.dout;
  const int grid = c.opt.grid, reps = c.opt.reps;
  if ((size_t)grid * B * I * sizeof(T) > c.bytes) {
    fprintf(stderr, "--grid=%d too large for a 1 GiB buffer\n", grid);
    exit(2);
  }
  CHECK(cudaMemset(out, 0, c.bytes));
  loop_kernel<M, T, B, I><<<grid, B>>>(in, out, reps);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  const bool ok = verify_loop<T>(c, B, I, G, grid, reps);
  const float ms = median_ms(c.opt, [&] { loop_kernel<M, T, B, I><<<grid, B>>>(in, out, reps); });
  const float base = median_ms(c.opt, [&] { loop_kernel<M, T, B, I><<<grid, B>>>(in, out, 0); });
  const double ops = (double)grid * reps / c.sms;  // block-level selects per SM
  print_head("loop", M::name, dtype_name<T>(), B, I, M::width);
  printf("ms=%9.4f base_ms=%9.4f ns/op=%9.3f temp=%6zu %s\n", ms, base,
         reps > 0 ? (ms - base) * 1e6 / ops : 0.0, sizeof(typename Op::Storage), ok ? "OK" : "FAIL");
  fflush(stdout);
}

template <class M, typename T, int B, int I>
static void add(std::vector<Entry>& v) {
  v.push_back({"tile", M::name, dtype_name<T>(), B, I, M::width, run_tile<M, T, B, I>});
  v.push_back({"loop", M::name, dtype_name<T>(), B, I, M::width, run_loop<M, T, B, I>});
}

// The compiled configurations (cub_exchange.cu's block/ipt pairs, and 512x4 and 1024x2).
template <typename T>
static void add_all(std::vector<Entry>& v) {
  add<block_select, T, 128, 1>(v);
  add<block_select, T, 128, 4>(v);
  add<block_select, T, 256, 4>(v);
  add<block_select, T, 256, 8>(v);
  add<block_select, T, 128, 16>(v);
  add<block_select, T, 512, 4>(v);
  add<block_select, T, 1024, 2>(v);
  add<warp_select<32>, T, 128, 4>(v);
  add<warp_select<8>, T, 128, 4>(v);
  add<warp_select<32>, T, 256, 8>(v);
}

int main(int argc, char** argv) {
  std::vector<Entry> entries;
  add_all<int32_t>(entries);
  add_all<double>(entries);
  return reference_main(argc, argv, "cub_select", entries);
}
