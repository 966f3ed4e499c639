// CUB's block and warp merge sorts: the C++ reference for cuda.coop's `merge_sort_keys` and
// `merge_sort_pairs` (cub::BlockMergeSort<K, BLOCK, IPT, V> and cub::WarpMergeSort<K, IPT, W>).
// Build: nvcc -O3 -arch=sm_90 -std=c++17 cub_merge_sort.cu -o cub_merge_sort
//
// Modes (every sort ascending by `less`, a < b, the comparison CUB requires; blocked in and out:
// thread t's item i is its group's sorted position t * IPT + i, t counted in the group):
//   block_merge_keys   width 0: the block, BlockMergeSort Sort(keys, less)
//   block_merge_pairs  width 0: the block, BlockMergeSort Sort(keys, values, less), int32 values
//   warp_merge_keys    width W: each logical warp of W lanes sorts its own W * IPT keys of the
//                      block's tile (the tile of warp w starts at w * W * IPT), WarpMergeSort
//                      Sort(keys, less), each warp with its own TempStorage slot (W = 32, 16)
// A mode is a tag type named as the mode (a template of W for warps), so that the kernels'
// demangled names read tile_kernel<MODE, K, BLOCK, IPT>, which numba_merge_sort.py maps to rows.
// CUB's Sort is StableSort (a stable odd-even sort of each thread's items, then merges that take
// ties from the first run), so equal keys keep their input order. Keys are int32, float32 or
// uint64.
//
// Every configuration is run by two kernels, the keys (and values) loaded and stored blocked
// (cub::LoadDirectBlocked, StoreDirectBlocked):
//
//   tile: 1 GiB of keys (1<<30 / sizeof(K), full tiles: every tile is a power of two), one tile
//         per block: load -> Sort -> store; pairs also load and store the values (1<<30 /
//         sizeof(K) int32). Reported as GB/s of the input read, keys and values
//         (n * (sizeof(K) + 4 if pairs) / median time).
//   loop: grid G (default 8192) blocks, one tile each: load once, then R (default 64) times
//         { Sort; key i = perturb(key i, i); reuse barrier }, store once. Also run with R = 0
//         (load + store only); reported as ns/op = (t(R) - t(0)) * SMs / (G * R): the SM-time
//         one iteration of a block takes (its sort, or its BLOCK / W warps' sorts, with the
//         update).
//
// The update after a sort gives the next one keys out of order: integer keys become
// k * 2654435761 + i in the key's width (a bijection that scatters the sorted run), float keys
// i - k (one IEEE subtraction: no multiply-add for nvcc to fuse, so the host model rounds as the
// GPU does, and the keys stay finite). Values only move with their keys.
//
// The reuse barrier (__syncthreads() for blocks, __syncwarp() for warps) is the one CUB's
// documentation asks of its users before TempStorage is used again: Sort's last merge reads the
// storage that the next Sort writes. (CUB's merge rounds happen to start with a barrier of their
// own, so this one is redundant in practice, but a user may not rely on that.)
//
// The keys: position j's is a hash of j, h = (uint32)(j * 2654435761) (the harness's input
// before its >> 12), spread over the whole key range: int32 (int32)h (both signs),
// uint64 h * 0x9E3779B97F4A7C15, float32 ((int32)h >> 8) / 4096 (exact: in [-2048, 2048), both
// signs), as cub_radix_sort.cu's. A value is its key's position j (int32), so that the moved
// values are the sort's order.
//
// Usage:
//   cub_merge_sort                       everything, after a cudaMemcpy D2D anchor line
//   cub_merge_sort list                  the configurations: kernel mode dtype block ipt width
//   cub_merge_sort KERNEL [MODE [DTYPE [BLOCK [IPT [WIDTH]]]]]   filters; "all" matches anything
//   options anywhere: --runs=N (21) --warmup=N (3) --reps=R (64) --grid=G (8192) --anchor
// Output: a header line "# cub_merge_sort: SMs=132 runs=21 warmup=3 loop reps=64 grid=8192", the
// anchor line when asked (as in cub_loadstore.cu), then one line per configuration, e.g.
//   tile block_merge_keys       int32 block= 128 ipt= 4 width= 0 ms=   1.2345 GB/s=   870.0 temp=  2052 OK
//   loop warp_merge_keys        int32 block= 128 ipt= 4 width=32 ms=   5.6780 base_ms=   0.0123 ns/op= 1234.500 temp=  2064 OK
// ms is the median of --runs launches after --warmup, each timed with its own cudaEvent pair;
// temp is sizeof the block's TempStorage (for warps, all of its warps' slots); OK/FAIL compares
// with a host model (std::stable_sort of each group's tile by <): the keys and values of the
// sampled tiles (every 97th and the last), for loop rows after `reps` sort-and-update steps.
#include <cub/block/block_load.cuh>
#include <cub/block/block_merge_sort.cuh>
#include <cub/block/block_store.cuh>
#include <cub/warp/warp_merge_sort.cuh>

#include <cstring>
#include <numeric>
#include <type_traits>

#include "reference_harness.cuh"

// The order of every sort: CUB's merge sorts take a comparison, and this is coop's default.
struct less {
  template <typename K> __device__ bool operator()(const K& a, const K& b) const { return a < b; }
};

// The modes: tag types named as their rows, so that the kernels' names carry the mode. Impl
// gives a configuration's storage (the block's __shared__ TempStorage), its sort and its reuse
// barrier.
template <bool PAIRS>
struct block_merge {
  static constexpr bool pairs = PAIRS;
  static constexpr int width = 0;
  template <typename K, int B, int I>
  struct Impl {
    using S = cub::BlockMergeSort<K, B, I, std::conditional_t<PAIRS, int32_t, cub::NullType>>;
    using Storage = typename S::TempStorage;
    static __device__ void sort(Storage& s, K (&k)[I]) { S(s).Sort(k, less()); }
    static __device__ void sort(Storage& s, K (&k)[I], int32_t (&v)[I]) { S(s).Sort(k, v, less()); }
    static __device__ void sync() { __syncthreads(); }
  };
};
struct block_merge_keys : block_merge<false> {
  static constexpr const char* name = "block_merge_keys";
};
struct block_merge_pairs : block_merge<true> {
  static constexpr const char* name = "block_merge_pairs";
};

template <int W>
struct warp_merge_keys {
  static constexpr const char* name = "warp_merge_keys";
  static constexpr bool pairs = false;
  static constexpr int width = W;
  template <typename K, int B, int I>
  struct Impl {
    static_assert(B % W == 0, "whole logical warps");
    using S = cub::WarpMergeSort<K, I, W>;
    struct Storage { typename S::TempStorage warp[B / W]; };
    static __device__ void sort(Storage& s, K (&k)[I]) {
      S(s.warp[threadIdx.x / W]).Sort(k, less());
    }
    static __device__ void sync() { __syncwarp(); }
  };
};

template <typename K> inline const char* key_name() {
  if constexpr (std::is_same_v<K, int32_t>) return "int32";
  else if constexpr (std::is_same_v<K, float>) return "float32";
  else {
    static_assert(std::is_same_v<K, uint64_t>, "int32, float32 or uint64 keys");
    return "uint64";
  }
}

// The loop's update of a thread's sorted key i (see the header).
template <typename K> __host__ __device__ inline K perturb(K k, int i) {
  if constexpr (std::is_floating_point_v<K>) {
    return K(i) - k;
  } else {
    using U = std::make_unsigned_t<K>;
    return K(U(U(k) * U(2654435761u) + U(i)));
  }
}

// ---- kernels ----------------------------------------------------------------------------------
template <class Mode, typename K, int B, int I>
__global__ void tile_kernel(const K* __restrict__ keys, const int32_t* __restrict__ values,
                            K* __restrict__ keys_out, int32_t* __restrict__ values_out) {
  using Op = typename Mode::template Impl<K, B, I>;
  __shared__ typename Op::Storage temp_storage;
  const long base = (long)blockIdx.x * B * I;
  K k[I];
  cub::LoadDirectBlocked((int)threadIdx.x, keys + base, k);
  if constexpr (Mode::pairs) {
    int32_t v[I];
    cub::LoadDirectBlocked((int)threadIdx.x, values + base, v);
    Op::sort(temp_storage, k, v);
    cub::StoreDirectBlocked((int)threadIdx.x, values_out + base, v);
  } else {
    Op::sort(temp_storage, k);
  }
  cub::StoreDirectBlocked((int)threadIdx.x, keys_out + base, k);
}

template <class Mode, typename K, int B, int I>
__global__ void loop_kernel(const K* __restrict__ keys, const int32_t* __restrict__ values,
                            K* __restrict__ keys_out, int32_t* __restrict__ values_out, int reps) {
  using Op = typename Mode::template Impl<K, B, I>;
  __shared__ typename Op::Storage temp_storage;
  const long base = (long)blockIdx.x * B * I;
  K k[I];
  int32_t v[I];
  cub::LoadDirectBlocked((int)threadIdx.x, keys + base, k);
  if constexpr (Mode::pairs) cub::LoadDirectBlocked((int)threadIdx.x, values + base, v);
#pragma unroll 1
  for (int r = 0; r < reps; ++r) {
    if constexpr (Mode::pairs) Op::sort(temp_storage, k, v);
    else Op::sort(temp_storage, k);
#pragma unroll
    for (int i = 0; i < I; ++i) k[i] = perturb(k[i], i);
    Op::sync();  // reuse barrier
  }
  cub::StoreDirectBlocked((int)threadIdx.x, keys_out + base, k);
  if constexpr (Mode::pairs) cub::StoreDirectBlocked((int)threadIdx.x, values_out + base, v);
}

// ---- host side --------------------------------------------------------------------------------

template <typename K> inline K key_at(size_t j) {
  const uint32_t h = (uint32_t)(j * 2654435761u);
  if constexpr (std::is_same_v<K, float>) return float((int32_t)h >> 8) * (1.0f / 4096);
  else if constexpr (sizeof(K) == 8) return K(h) * 0x9E3779B97F4A7C15ull;
  else return K(h);
}

// The keys of the rows being run (1 GiB of one key type). One type is kept at a time.
struct Keys {
  std::string type;
  void* device = nullptr;
  std::vector<uint8_t> host;  // the keys' bytes
};
static Keys g_keys;

template <typename K>
static const K* keys(Context& c) {
  Keys& s = g_keys;
  if (s.type != key_name<K>()) {
    if (s.device) CHECK(cudaFree(s.device));
    const size_t n = c.bytes / sizeof(K);
    s.host.resize(c.bytes);
    K* h = (K*)s.host.data();
    for (size_t j = 0; j < n; ++j) h[j] = key_at<K>(j);
    CHECK(cudaMalloc(&s.device, c.bytes));
    CHECK(cudaMemcpy(s.device, h, c.bytes, cudaMemcpyHostToDevice));
    s.type = key_name<K>();
  }
  return (const K*)s.device;
}

// The pairs' values, position j's is j, for the most keys of any type (1<<28 int32), and the
// sorted values' buffer.
struct Values {
  int32_t* in = nullptr;
  int32_t* out = nullptr;
};
static Values g_values;

static const Values& values(Context& c) {
  Values& v = g_values;
  if (!v.in) {
    std::vector<int32_t> h(c.bytes / sizeof(int32_t));
    std::iota(h.begin(), h.end(), 0);
    CHECK(cudaMalloc(&v.in, c.bytes));
    CHECK(cudaMalloc(&v.out, c.bytes));
    CHECK(cudaMemcpy(v.in, h.data(), c.bytes, cudaMemcpyHostToDevice));
  }
  return v;
}

// The sampled tiles' keys (bitwise) and, for pairs, values against the host model after
// `sorts` sorts of each group's tile (a stable sort by <), each followed by the loop's update
// where `update`.
template <class Mode, typename K, int B, int I>
static bool verify(Context& c, long tiles, int sorts, bool update) {
  const long tile = (long)B * I, group = (long)(Mode::width ? Mode::width : B) * I;
  std::vector<K> back(tiles * tile);
  CHECK(cudaMemcpy(back.data(), c.dout, back.size() * sizeof(K), cudaMemcpyDeviceToHost));
  std::vector<int32_t> vback(Mode::pairs ? tiles * tile : 0);
  if constexpr (Mode::pairs)
    CHECK(cudaMemcpy(vback.data(), g_values.out, vback.size() * sizeof(int32_t),
                     cudaMemcpyDeviceToHost));
  const K* h = (const K*)g_keys.host.data();
  std::vector<K> k(tile), sorted(tile);
  std::vector<int32_t> v(tile), moved(tile);
  std::vector<int> order(group);
  for (long t : sampled(tiles)) {
    std::copy(h + t * tile, h + (t + 1) * tile, k.begin());
    std::iota(v.begin(), v.end(), (int32_t)(t * tile));
    for (int s = 0; s < sorts; ++s) {
      for (long g = 0; g < tile; g += group) {
        std::iota(order.begin(), order.end(), 0);
        std::stable_sort(order.begin(), order.end(),
                         [&](int a, int b) { return k[g + a] < k[g + b]; });
        for (long p = 0; p < group; ++p) {
          sorted[g + p] = k[g + order[p]];
          moved[g + p] = v[g + order[p]];
        }
      }
      for (long p = 0; p < tile; ++p) k[p] = update ? perturb(sorted[p], (int)(p % I)) : sorted[p];
      v.swap(moved);
    }
    if (memcmp(k.data(), back.data() + t * tile, tile * sizeof(K))) return false;
    if (Mode::pairs && !std::equal(v.begin(), v.end(), vback.begin() + t * tile)) return false;
  }
  return true;
}

template <class Mode, typename K, int B, int I>
static void run_tile(Context& c) {
  static_assert(((B * I) & (B * I - 1)) == 0, "a power-of-two tile: full tiles cover the input");
  const K* in = keys<K>(c);
  const Values& v = values(c);
  const long n = c.bytes / sizeof(K), tiles = n / (B * I);
  K* out = (K*)c.dout;
  CHECK(cudaMemset(out, 0, c.bytes));
  if (Mode::pairs) CHECK(cudaMemset(v.out, 0, c.bytes));
  tile_kernel<Mode, K, B, I><<<tiles, B>>>(in, v.in, out, v.out);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  const bool ok = verify<Mode, K, B, I>(c, tiles, 1, false);
  const float ms = median_ms(c.opt, [&] {
    tile_kernel<Mode, K, B, I><<<tiles, B>>>(in, v.in, out, v.out);
  });
  const size_t bytes = n * (sizeof(K) + (Mode::pairs ? sizeof(int32_t) : 0));
  print_head("tile", Mode::name, key_name<K>(), B, I, Mode::width);
  printf("ms=%9.4f GB/s=%8.1f temp=%6zu %s\n", ms, 1.0 * bytes / (ms * 1e6),
         sizeof(typename Mode::template Impl<K, B, I>::Storage), ok ? "OK" : "FAIL");
  fflush(stdout);
}

template <class Mode, typename K, int B, int I>
static void run_loop(Context& c) {
  const K* in = keys<K>(c);
  const Values& v = values(c);
  K* out = (K*)c.dout;
  const int grid = c.opt.grid, reps = c.opt.reps;
  if ((size_t)grid * B * I * sizeof(K) > c.bytes) {
    fprintf(stderr, "--grid=%d too large for a 1 GiB buffer\n", grid);
    exit(2);
  }
  CHECK(cudaMemset(out, 0, c.bytes));
  if (Mode::pairs) CHECK(cudaMemset(v.out, 0, c.bytes));
  loop_kernel<Mode, K, B, I><<<grid, B>>>(in, v.in, out, v.out, reps);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  const bool ok = verify<Mode, K, B, I>(c, grid, reps, true);
  const float ms = median_ms(c.opt, [&] {
    loop_kernel<Mode, K, B, I><<<grid, B>>>(in, v.in, out, v.out, reps);
  });
  const float base = median_ms(c.opt, [&] {
    loop_kernel<Mode, K, B, I><<<grid, B>>>(in, v.in, out, v.out, 0);
  });
  const double ops = (double)grid * reps / c.sms;  // block iterations per SM
  print_head("loop", Mode::name, key_name<K>(), B, I, Mode::width);
  printf("ms=%9.4f base_ms=%9.4f ns/op=%9.3f temp=%6zu %s\n", ms, base,
         reps > 0 ? (ms - base) * 1e6 / ops : 0.0,
         sizeof(typename Mode::template Impl<K, B, I>::Storage), ok ? "OK" : "FAIL");
  fflush(stdout);
}

template <class Mode, typename K, int B, int I>
static void add(std::vector<Entry>& v) {
  v.push_back({"tile", Mode::name, key_name<K>(), B, I, Mode::width, run_tile<Mode, K, B, I>});
  v.push_back({"loop", Mode::name, key_name<K>(), B, I, Mode::width, run_loop<Mode, K, B, I>});
}

// The compiled configurations: mode, key type, block, keys a thread.
static void add_all(std::vector<Entry>& v) {
  add<block_merge_keys, int32_t, 128, 4>(v);
  add<block_merge_keys, int32_t, 256, 4>(v);
  add<block_merge_keys, int32_t, 256, 8>(v);
  add<block_merge_keys, int32_t, 512, 2>(v);
  add<block_merge_keys, float, 256, 4>(v);
  add<block_merge_keys, uint64_t, 128, 4>(v);
  add<block_merge_pairs, int32_t, 256, 4>(v);
  add<block_merge_pairs, float, 128, 8>(v);
  add<warp_merge_keys<32>, int32_t, 128, 4>(v);
  add<warp_merge_keys<16>, int32_t, 128, 8>(v);
}

int main(int argc, char** argv) {
  std::vector<Entry> entries;
  add_all(entries);
  return reference_main(argc, argv, "cub_merge_sort", entries);
}
