// CUB's block radix sort: the C++ reference for cuda.coop's `radix_sort_keys` and
// `radix_sort_pairs` (cub::BlockRadixSort<K, BLOCK, IPT, V>, its default 4-bit digits).
// Build: nvcc -O3 -arch=sm_90 -std=c++17 cub_radix_sort.cu -o cub_radix_sort
//
// Modes (width 0: the block; the sort is a block collective only): block_sort_keys, Sort(keys),
// and block_sort_pairs, Sort(keys, values) with int32 values; both sort every bit of the key,
// ascending, blocked in and out (thread t's item i is sorted position t * IPT + i). A mode is a
// tag type named as the mode, so that the kernels' demangled names read tile_kernel<MODE, K,
// BLOCK, IPT>, which numba_radix_sort.py maps to rows. Keys are uint8, uint32, int32, float32 or
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
//         one block sort takes (with the update).
//
// The update after a sort gives the next one keys out of order: integer keys become
// k * 2654435761 + i in the key's width (a bijection that scatters the sorted run), float keys
// i - k (one IEEE subtraction: no multiply-add for nvcc to fuse, so the host model rounds as the
// GPU does, and the keys stay finite). Values only move with their keys.
//
// The reuse barrier is the one CUB's documentation asks of its users before TempStorage is used
// again: Sort's last exchange reads the storage that the next Sort's ranking writes.
//
// The keys: position j's is a hash of j, h = (uint32)(j * 2654435761) (the harness's input
// before its >> 12), spread over the whole key range: uint32 h, int32 (int32)h (both signs),
// uint64 h * 0x9E3779B97F4A7C15, uint8 h >> 24, float32 ((int32)h >> 8) / 4096 (exact: in
// [-2048, 2048), both signs). A value is its key's position j (int32), so that the moved values
// are the sort's order.
//
// Usage:
//   cub_radix_sort                       everything, after a cudaMemcpy D2D anchor line
//   cub_radix_sort list                  the configurations: kernel mode dtype block ipt width
//   cub_radix_sort KERNEL [MODE [DTYPE [BLOCK [IPT [WIDTH]]]]]   filters; "all" matches anything
//   options anywhere: --runs=N (21) --warmup=N (3) --reps=R (64) --grid=G (8192) --anchor
// Output: a header line "# cub_radix_sort: SMs=132 runs=21 warmup=3 loop reps=64 grid=8192", the
// anchor line when asked (as in cub_loadstore.cu), then one line per configuration, e.g.
//   tile block_sort_keys        uint32 block= 128 ipt= 4 width= 0 ms=   1.2345 GB/s=   870.0 temp=  4640 OK
//   loop block_sort_keys        uint32 block= 128 ipt= 4 width= 0 ms=   5.6780 base_ms=   0.0123 ns/op= 1234.500 temp=  4640 OK
// ms is the median of --runs launches after --warmup, each timed with its own cudaEvent pair;
// temp is sizeof the sort's TempStorage; OK/FAIL compares with a host model (a stable sort by
// the keys' bit-ordered form, as CUB orders them): the keys and values of the sampled tiles
// (every 97th and the last), for loop rows after `reps` sort-and-update steps.
#include <cub/block/block_load.cuh>
#include <cub/block/block_radix_sort.cuh>
#include <cub/block/block_store.cuh>

#include <cstring>
#include <numeric>
#include <type_traits>

#include "reference_harness.cuh"

// The modes: tag types named as their rows, so that the kernels' names carry the mode.
struct block_sort_keys {
  static constexpr const char* name = "block_sort_keys";
  static constexpr bool pairs = false;
};
struct block_sort_pairs {
  static constexpr const char* name = "block_sort_pairs";
  static constexpr bool pairs = true;
};

template <typename K> inline const char* key_name() {
  if constexpr (std::is_same_v<K, uint8_t>) return "uint8";
  else if constexpr (std::is_same_v<K, uint32_t>) return "uint32";
  else if constexpr (std::is_same_v<K, int32_t>) return "int32";
  else if constexpr (std::is_same_v<K, float>) return "float32";
  else {
    static_assert(std::is_same_v<K, uint64_t>, "uint8, uint32, int32, float32 or uint64 keys");
    return "uint64";
  }
}

template <class Mode, typename K, int B, int I>
using Sort = cub::BlockRadixSort<K, B, I, std::conditional_t<Mode::pairs, int32_t, cub::NullType>>;

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
  __shared__ typename Sort<Mode, K, B, I>::TempStorage temp_storage;
  const long base = (long)blockIdx.x * B * I;
  K k[I];
  cub::LoadDirectBlocked((int)threadIdx.x, keys + base, k);
  if constexpr (Mode::pairs) {
    int32_t v[I];
    cub::LoadDirectBlocked((int)threadIdx.x, values + base, v);
    Sort<Mode, K, B, I>(temp_storage).Sort(k, v);
    cub::StoreDirectBlocked((int)threadIdx.x, values_out + base, v);
  } else {
    Sort<Mode, K, B, I>(temp_storage).Sort(k);
  }
  cub::StoreDirectBlocked((int)threadIdx.x, keys_out + base, k);
}

template <class Mode, typename K, int B, int I>
__global__ void loop_kernel(const K* __restrict__ keys, const int32_t* __restrict__ values,
                            K* __restrict__ keys_out, int32_t* __restrict__ values_out, int reps) {
  __shared__ typename Sort<Mode, K, B, I>::TempStorage temp_storage;
  const long base = (long)blockIdx.x * B * I;
  K k[I];
  int32_t v[I];
  cub::LoadDirectBlocked((int)threadIdx.x, keys + base, k);
  if constexpr (Mode::pairs) cub::LoadDirectBlocked((int)threadIdx.x, values + base, v);
#pragma unroll 1
  for (int r = 0; r < reps; ++r) {
    if constexpr (Mode::pairs) Sort<Mode, K, B, I>(temp_storage).Sort(k, v);
    else Sort<Mode, K, B, I>(temp_storage).Sort(k);
#pragma unroll
    for (int i = 0; i < I; ++i) k[i] = perturb(k[i], i);
    __syncthreads();  // reuse barrier
  }
  cub::StoreDirectBlocked((int)threadIdx.x, keys_out + base, k);
  if constexpr (Mode::pairs) cub::StoreDirectBlocked((int)threadIdx.x, values_out + base, v);
}

// ---- host side --------------------------------------------------------------------------------

template <typename K> inline K key_at(size_t j) {
  const uint32_t h = (uint32_t)(j * 2654435761u);
  if constexpr (std::is_same_v<K, float>) return float((int32_t)h >> 8) * (1.0f / 4096);
  else if constexpr (sizeof(K) == 8) return K(h) * 0x9E3779B97F4A7C15ull;
  else if constexpr (sizeof(K) == 1) return K(h >> 24);
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

// The pairs' values, position j's is j, for the most keys of any type (1<<28 uint32), and the
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

// CUB's bit-ordered form of a key, which its radix sort orders as an unsigned integer: signed
// integers with the sign bit flipped, floats with every bit flipped when negative and the sign
// bit otherwise, -0.0 as +0.0.
template <typename K> inline auto ordered_bits(K k) {
  using U = std::conditional_t<sizeof(K) == 1, uint8_t,
                               std::conditional_t<sizeof(K) == 4, uint32_t, uint64_t>>;
  constexpr U high = U(U(1) << (8 * sizeof(K) - 1));
  U u;
  memcpy(&u, &k, sizeof(K));
  if constexpr (std::is_floating_point_v<K>) {
    if (u == high) u = 0;
    return U(u & high ? ~u : u | high);
  } else if constexpr (std::is_signed_v<K>) {
    return U(u ^ high);
  } else {
    return u;
  }
}

// One tile's input positions in sorted order: a stable sort by the bit-ordered keys.
template <typename K> static std::vector<int> sorted_order(const K* k, int n) {
  std::vector<int> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](int a, int b) { return ordered_bits(k[a]) < ordered_bits(k[b]); });
  return order;
}

// The sampled tiles' keys (bitwise) and, for pairs, values against the host model after
// `sorts` sorts, each followed by the loop's update where `update`.
template <class Mode, typename K, int B, int I>
static bool verify(Context& c, long tiles, int sorts, bool update) {
  const long tile = (long)B * I;
  std::vector<K> back(tiles * tile);
  CHECK(cudaMemcpy(back.data(), c.dout, back.size() * sizeof(K), cudaMemcpyDeviceToHost));
  std::vector<int32_t> vback(Mode::pairs ? tiles * tile : 0);
  if constexpr (Mode::pairs)
    CHECK(cudaMemcpy(vback.data(), g_values.out, vback.size() * sizeof(int32_t),
                     cudaMemcpyDeviceToHost));
  const K* h = (const K*)g_keys.host.data();
  std::vector<K> k(tile), sorted(tile);
  std::vector<int32_t> v(tile), moved(tile);
  for (long t : sampled(tiles)) {
    std::copy(h + t * tile, h + (t + 1) * tile, k.begin());
    std::iota(v.begin(), v.end(), (int32_t)(t * tile));
    for (int s = 0; s < sorts; ++s) {
      const std::vector<int> order = sorted_order(k.data(), tile);
      for (long p = 0; p < tile; ++p) {
        sorted[p] = k[order[p]];
        moved[p] = v[order[p]];
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
  print_head("tile", Mode::name, key_name<K>(), B, I, 0);
  printf("ms=%9.4f GB/s=%8.1f temp=%6zu %s\n", ms, 1.0 * bytes / (ms * 1e6),
         sizeof(typename Sort<Mode, K, B, I>::TempStorage), ok ? "OK" : "FAIL");
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
  const double ops = (double)grid * reps / c.sms;  // block sorts per SM
  print_head("loop", Mode::name, key_name<K>(), B, I, 0);
  printf("ms=%9.4f base_ms=%9.4f ns/op=%9.3f temp=%6zu %s\n", ms, base,
         reps > 0 ? (ms - base) * 1e6 / ops : 0.0,
         sizeof(typename Sort<Mode, K, B, I>::TempStorage), ok ? "OK" : "FAIL");
  fflush(stdout);
}

template <class Mode, typename K, int B, int I>
static void add(std::vector<Entry>& v) {
  v.push_back({"tile", Mode::name, key_name<K>(), B, I, 0, run_tile<Mode, K, B, I>});
  v.push_back({"loop", Mode::name, key_name<K>(), B, I, 0, run_loop<Mode, K, B, I>});
}

// The compiled configurations: mode, key type, block, keys a thread.
static void add_all(std::vector<Entry>& v) {
  add<block_sort_keys, uint32_t, 128, 4>(v);
  add<block_sort_keys, uint32_t, 256, 4>(v);
  add<block_sort_keys, uint32_t, 256, 8>(v);
  add<block_sort_keys, uint32_t, 512, 2>(v);
  add<block_sort_keys, int32_t, 1024, 4>(v);
  add<block_sort_keys, float, 256, 4>(v);
  add<block_sort_keys, uint64_t, 128, 4>(v);
  add<block_sort_keys, uint8_t, 256, 8>(v);
  add<block_sort_pairs, uint32_t, 256, 4>(v);
  add<block_sort_pairs, float, 128, 8>(v);
  add<block_sort_pairs, uint64_t, 256, 2>(v);
}

int main(int argc, char** argv) {
  std::vector<Entry> entries;
  add_all(entries);
  return reference_main(argc, argv, "cub_radix_sort", entries);
}
