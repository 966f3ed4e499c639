// CUB BlockExchange / BlockShuffle / WarpExchange: the C++ reference for cuda.coop's `exchange`
// and `shuffle` collectives (docs/guide.md).
// Build: nvcc -O3 -arch=sm_90 -std=c++17 cub_exchange.cu -o cub_exchange
//
// Every configuration is a mode (a forward operation and its inverse) run by two kernels:
//
//   tile: ~1 GiB (1<<28 int32 or 1<<27 f64, full tiles only), one tile per block:
//         load striped -> forward -> item += threadIdx.x -> barrier -> inverse -> store striped.
//         Reported as GB/s (2 * bytes / median time), like cub_loadstore.cu.
//   loop: grid G (default 8192) blocks, one tile each: load striped once, then R (default 64)
//         times { forward; item += threadIdx.x; barrier; inverse; barrier }, store once.
//         Also run with R = 0 (load + store only); reported as
//         ns/op = (t(R) - t(0)) * SMs / (G * R * ops), ops = operations per iteration
//         (2; 2 * ipt for the scalar shuffles): the SM-time one block-level operation takes.
//
// "Striped" is the block's striped layout (cub::LoadDirectStriped<BLOCK>); warp modes use the
// striped layout of each logical warp's own tile (it starts at (tid / width) * width * ipt).
// The barrier between forward and inverse (and at the end of a loop iteration) is the
// TempStorage reuse barrier CUB users must write: __syncthreads() for block primitives,
// __syncwarp() for WarpExchange.
//
// Modes (width 0 = block):
//   striped             BlockExchange StripedToBlocked -> BlockedToStriped
//   striped_timesliced  the same with WARP_TIME_SLICING = true
//   warp_striped        BlockExchange WarpStripedToBlocked -> BlockedToWarpStriped
//   scatter             BlockExchange ScatterToBlocked -> ScatterToStriped, ranks reverse the
//                       tile (TILE-1-position*rank_step of the item in the current layout), in
//                       registers. rank_step is a kernel argument (1): with it the compiler
//                       cannot prove a thread's ranks consecutive, as it cannot for ranks
//                       computed from data (a radix sort's); with the position alone nvcc merges
//                       ScatterToStriped's four stores into one STS.128 at 4 items a thread.
//   shuffle_up_down     BlockShuffle Up -> Down on the payload (output pre-set to the input, so
//                       the vacated element keeps its own value)
//   shuffle_offset      BlockShuffle Offset(+1) -> Offset(-1), one scalar shuffle per item
//                       (ipt of them, a barrier between); out-of-range keeps its own value
//   shuffle_rotate      BlockShuffle Rotate(1) -> Rotate(BLOCK-1), as shuffle_offset
//   warp_exchange_striped  WarpExchange (WARP_EXCHANGE_SMEM) StripedToBlocked -> BlockedToStriped
//   warp_exchange_scatter  WarpExchange ScatterToStriped -> ScatterToStriped, ranks reverse the
//                          warp tile (times rank_step, as scatter's); width 32 and 8
//
// Usage:
//   cub_exchange                        everything, after a cudaMemcpy D2D anchor line
//   cub_exchange list                   the configurations: kernel mode dtype block ipt width
//   cub_exchange KERNEL [MODE [DTYPE [BLOCK [IPT [WIDTH]]]]]   filters; "all" matches anything
//   options anywhere: --runs=N (21) --warmup=N (3) --reps=R (64) --grid=G (8192) --anchor
// Output: a header line "# cub_exchange: SMs=132 runs=21 warmup=3 loop reps=64 grid=8192", the
// anchor line when asked (as in cub_loadstore.cu), then one line per configuration, e.g.
//   tile striped                int32 block= 128 ipt= 4 width= 0 ms=   0.2600 GB/s=  4200.0 temp=  2048 OK
//   loop striped                int32 block= 128 ipt= 4 width= 0 ms=   0.5678 base_ms=   0.0123 ns/op=   12.345 temp=  2048 OK
// ms is the median of --runs launches after --warmup, each timed with its own cudaEvent pair;
// temp is sizeof the kernel's __shared__ TempStorage (per block); OK/FAIL compares sampled
// tiles (every 97th and the last) with a host model of the mode.
#include <cub/block/block_exchange.cuh>
#include <cub/block/block_load.cuh>
#include <cub/block/block_shuffle.cuh>
#include <cub/block/block_store.cuh>
#include <cub/warp/warp_exchange.cuh>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#define CHECK(x)                                                                   \
  do {                                                                             \
    cudaError_t e_ = (x);                                                          \
    if (e_ != cudaSuccess) {                                                       \
      fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); \
      exit(1);                                                                     \
    }                                                                              \
  } while (0)

// ---- host layouts: tile position of item i of thread t ---------------------------------------
static int pos_striped(int t, int i, int B, int) { return i * B + t; }
static int pos_blocked(int t, int i, int, int I) { return t * I + i; }
static int pos_warp_striped(int t, int i, int, int I) { return (t / 32) * 32 * I + t % 32 + 32 * i; }
static int pos_lw_striped(int t, int i, int W, int I) { return (t / W) * W * I + i * W + t % W; }
static int pos_lw_blocked(int t, int i, int W, int I) { return (t / W) * W * I + (t % W) * I + i; }

// Registers r[t * I + i] -> o: item i of thread t goes to tile position from(t, i); thread t
// then takes position to(t, i) as its item i.
template <typename T, class F, class G>
static void host_exchange(const std::vector<T>& r, std::vector<T>& o, int B, int I, F from, G to) {
  std::vector<T> x(r.size());
  for (int t = 0; t < B; ++t)
    for (int i = 0; i < I; ++i) x[from(t, i)] = r[t * I + i];
  for (int t = 0; t < B; ++t)
    for (int i = 0; i < I; ++i) o[t * I + i] = x[to(t, i)];
}

// ---- modes ------------------------------------------------------------------------------------
// Each mode: name, width (0: block), ops per loop iteration, Impl<T, B, I> with Storage,
// fwd/inv on registers and sync(), and host(forward, r, o, B, I) modelling fwd/inv.

template <bool TIMESLICED>
struct striped_base {
  static constexpr int width = 0;
  static int ops(int) { return 2; }
  template <typename T, int B, int I>
  struct Impl {
    using X = cub::BlockExchange<T, B, I, TIMESLICED>;
    using Storage = typename X::TempStorage;
    static __device__ void fwd(Storage& s, T (&a)[I], T (&b)[I], int) { X(s).StripedToBlocked(a, b); }
    static __device__ void inv(Storage& s, T (&a)[I], T (&b)[I], int) { X(s).BlockedToStriped(a, b); }
    static __device__ void sync() { __syncthreads(); }
  };
  template <typename T>
  static void host(bool forward, const std::vector<T>& r, std::vector<T>& o, int B, int I) {
    auto s = [&](int t, int i) { return pos_striped(t, i, B, I); };
    auto b = [&](int t, int i) { return pos_blocked(t, i, B, I); };
    if (forward) host_exchange(r, o, B, I, s, b); else host_exchange(r, o, B, I, b, s);
  }
};
struct striped : striped_base<false> { static constexpr const char* name = "striped"; };
struct striped_timesliced : striped_base<true> {
  static constexpr const char* name = "striped_timesliced";
};

struct warp_striped {
  static constexpr const char* name = "warp_striped";
  static constexpr int width = 0;
  static int ops(int) { return 2; }
  template <typename T, int B, int I>
  struct Impl {
    using X = cub::BlockExchange<T, B, I>;
    using Storage = typename X::TempStorage;
    static __device__ void fwd(Storage& s, T (&a)[I], T (&b)[I], int) { X(s).WarpStripedToBlocked(a, b); }
    static __device__ void inv(Storage& s, T (&a)[I], T (&b)[I], int) { X(s).BlockedToWarpStriped(a, b); }
    static __device__ void sync() { __syncthreads(); }
  };
  template <typename T>
  static void host(bool forward, const std::vector<T>& r, std::vector<T>& o, int B, int I) {
    auto w = [&](int t, int i) { return pos_warp_striped(t, i, B, I); };
    auto b = [&](int t, int i) { return pos_blocked(t, i, B, I); };
    if (forward) host_exchange(r, o, B, I, w, b); else host_exchange(r, o, B, I, b, w);
  }
};

struct scatter {
  static constexpr const char* name = "scatter";
  static constexpr int width = 0;
  static int ops(int) { return 2; }
  template <typename T, int B, int I>
  struct Impl {
    using X = cub::BlockExchange<T, B, I>;
    using Storage = typename X::TempStorage;
    static __device__ void fwd(Storage& s, T (&a)[I], T (&b)[I], int rank_step) {
      int ranks[I];  // input striped: reverse the tile
#pragma unroll
      for (int i = 0; i < I; ++i) ranks[i] = B * I - 1 - (i * B + (int)threadIdx.x) * rank_step;
      X(s).ScatterToBlocked(a, b, ranks);
    }
    static __device__ void inv(Storage& s, T (&a)[I], T (&b)[I], int rank_step) {
      int ranks[I];  // input blocked: reverse the tile
#pragma unroll
      for (int i = 0; i < I; ++i) ranks[i] = B * I - 1 - ((int)threadIdx.x * I + i) * rank_step;
      X(s).ScatterToStriped(a, b, ranks);
    }
    static __device__ void sync() { __syncthreads(); }
  };
  template <typename T>
  static void host(bool forward, const std::vector<T>& r, std::vector<T>& o, int B, int I) {
    const int last = B * I - 1;
    auto s = [&](int t, int i) { return pos_striped(t, i, B, I); };
    auto b = [&](int t, int i) { return pos_blocked(t, i, B, I); };
    if (forward) host_exchange(r, o, B, I, [&](int t, int i) { return last - s(t, i); }, b);
    else host_exchange(r, o, B, I, [&](int t, int i) { return last - b(t, i); }, s);
  }
};

struct shuffle_up_down {
  static constexpr const char* name = "shuffle_up_down";
  static constexpr int width = 0;
  static int ops(int) { return 2; }
  template <typename T, int B, int I>
  struct Impl {
    using X = cub::BlockShuffle<T, B>;
    using Storage = typename X::TempStorage;
    static __device__ void fwd(Storage& s, T (&a)[I], T (&b)[I], int) {
#pragma unroll
      for (int i = 0; i < I; ++i) b[i] = a[i];
      X(s).Up(a, b);
    }
    static __device__ void inv(Storage& s, T (&a)[I], T (&b)[I], int) {
#pragma unroll
      for (int i = 0; i < I; ++i) b[i] = a[i];
      X(s).Down(a, b);
    }
    static __device__ void sync() { __syncthreads(); }
  };
  template <typename T>
  static void host(bool forward, const std::vector<T>& r, std::vector<T>& o, int B, int I) {
    const int n = B * I;  // r is indexed t * I + i: the blocked position
    for (int p = 0; p < n; ++p)
      o[p] = forward ? (p > 0 ? r[p - 1] : r[p]) : (p < n - 1 ? r[p + 1] : r[p]);
  }
};

template <bool ROTATE>
struct shuffle_scalar {
  static constexpr const char* name = ROTATE ? "shuffle_rotate" : "shuffle_offset";
  static constexpr int width = 0;
  static int ops(int ipt) { return 2 * ipt; }
  template <typename T, int B, int I>
  struct Impl {
    using X = cub::BlockShuffle<T, B>;
    using Storage = typename X::TempStorage;
    static __device__ void step(Storage& s, T (&a)[I], T (&b)[I], bool forward) {
#pragma unroll
      for (int i = 0; i < I; ++i) {
        if (i > 0) __syncthreads();  // reuse of the shuffle's TempStorage
        b[i] = a[i];
        if (ROTATE) X(s).Rotate(a[i], b[i], forward ? 1u : (unsigned)(B - 1));
        else X(s).Offset(a[i], b[i], forward ? 1 : -1);
      }
    }
    static __device__ void fwd(Storage& s, T (&a)[I], T (&b)[I], int) { step(s, a, b, true); }
    static __device__ void inv(Storage& s, T (&a)[I], T (&b)[I], int) { step(s, a, b, false); }
    static __device__ void sync() { __syncthreads(); }
  };
  template <typename T>
  static void host(bool forward, const std::vector<T>& r, std::vector<T>& o, int B, int I) {
    for (int t = 0; t < B; ++t)
      for (int i = 0; i < I; ++i) {
        int src = ROTATE ? (forward ? (t + 1) % B : (t + B - 1) % B) : (forward ? t + 1 : t - 1);
        o[t * I + i] = (src >= 0 && src < B) ? r[src * I + i] : r[t * I + i];
      }
  }
};
// Named structs (not aliases) so that the kernels' demangled names carry the mode's name.
struct shuffle_offset : shuffle_scalar<false> {};
struct shuffle_rotate : shuffle_scalar<true> {};

template <int W>
struct warp_exchange_striped {
  static constexpr const char* name = "warp_exchange_striped";
  static constexpr int width = W;
  static int ops(int) { return 2; }
  template <typename T, int B, int I>
  struct Impl {
    using X = cub::WarpExchange<T, I, W>;
    struct Storage { typename X::TempStorage warp[B / W]; };
    static __device__ void fwd(Storage& s, T (&a)[I], T (&b)[I], int) {
      X(s.warp[threadIdx.x / W]).StripedToBlocked(a, b);
    }
    static __device__ void inv(Storage& s, T (&a)[I], T (&b)[I], int) {
      X(s.warp[threadIdx.x / W]).BlockedToStriped(a, b);
    }
    static __device__ void sync() { __syncwarp(); }
  };
  template <typename T>
  static void host(bool forward, const std::vector<T>& r, std::vector<T>& o, int B, int I) {
    auto s = [&](int t, int i) { return pos_lw_striped(t, i, W, I); };
    auto b = [&](int t, int i) { return pos_lw_blocked(t, i, W, I); };
    if (forward) host_exchange(r, o, B, I, s, b); else host_exchange(r, o, B, I, b, s);
  }
};

template <int W>
struct warp_exchange_scatter {
  static constexpr const char* name = "warp_exchange_scatter";
  static constexpr int width = W;
  static int ops(int) { return 2; }
  template <typename T, int B, int I>
  struct Impl {
    using X = cub::WarpExchange<T, I, W>;
    struct Storage { typename X::TempStorage warp[B / W]; };
    static __device__ void step(Storage& s, T (&a)[I], T (&b)[I], int rank_step) {
      int ranks[I];  // input striped in the warp tile: reverse the warp tile
      const int lane = threadIdx.x % W;
#pragma unroll
      for (int i = 0; i < I; ++i) ranks[i] = W * I - 1 - (i * W + lane) * rank_step;
      X(s.warp[threadIdx.x / W]).ScatterToStriped(a, b, ranks);
    }
    static __device__ void fwd(Storage& s, T (&a)[I], T (&b)[I], int rank_step) { step(s, a, b, rank_step); }
    static __device__ void inv(Storage& s, T (&a)[I], T (&b)[I], int rank_step) { step(s, a, b, rank_step); }
    static __device__ void sync() { __syncwarp(); }
  };
  template <typename T>
  static void host(bool, const std::vector<T>& r, std::vector<T>& o, int B, int I) {
    auto s = [&](int t, int i) { return pos_lw_striped(t, i, W, I); };
    auto from = [&](int t, int i) { return (t / W) * W * I + W * I - 1 - (i * W + t % W); };
    host_exchange(r, o, B, I, from, s);
  }
};

// ---- kernels ----------------------------------------------------------------------------------
template <class M, int B, int I, typename T>
__device__ __forceinline__ void load_tile(const T* tile, T (&a)[I]) {
  if constexpr (M::width == 0) {
    cub::LoadDirectStriped<B>((int)threadIdx.x, tile, a);
  } else {
    const int w = threadIdx.x / M::width;
    cub::LoadDirectStriped<M::width>((int)threadIdx.x % M::width, tile + w * M::width * I, a);
  }
}

template <class M, int B, int I, typename T>
__device__ __forceinline__ void store_tile(T* tile, T (&a)[I]) {
  if constexpr (M::width == 0) {
    cub::StoreDirectStriped<B>((int)threadIdx.x, tile, a);
  } else {
    const int w = threadIdx.x / M::width;
    cub::StoreDirectStriped<M::width>((int)threadIdx.x % M::width, tile + w * M::width * I, a);
  }
}

template <class M, typename T, int B, int I>
__global__ void tile_kernel(const T* __restrict__ in, T* __restrict__ out, int rank_step) {
  using Op = typename M::template Impl<T, B, I>;
  __shared__ typename Op::Storage storage;
  T a[I], b[I];
  const long base = (long)blockIdx.x * B * I;
  load_tile<M, B, I>(in + base, a);
  Op::fwd(storage, a, b, rank_step);
#pragma unroll
  for (int i = 0; i < I; ++i) b[i] += T(threadIdx.x);
  Op::sync();
  Op::inv(storage, b, a, rank_step);
  store_tile<M, B, I>(out + base, a);
}

template <class M, typename T, int B, int I>
__global__ void loop_kernel(const T* __restrict__ in, T* __restrict__ out, int reps,
                            int rank_step) {
  using Op = typename M::template Impl<T, B, I>;
  __shared__ typename Op::Storage storage;
  T a[I], b[I];
  const long base = (long)blockIdx.x * B * I;
  load_tile<M, B, I>(in + base, a);
#pragma unroll 1
  for (int r = 0; r < reps; ++r) {
    Op::fwd(storage, a, b, rank_step);
#pragma unroll
    for (int i = 0; i < I; ++i) b[i] += T(threadIdx.x);
    Op::sync();
    Op::inv(storage, b, a, rank_step);
    Op::sync();
  }
  store_tile<M, B, I>(out + base, a);
}

// ---- host side --------------------------------------------------------------------------------
struct Options {
  int runs = 21, warmup = 3, reps = 64, grid = 8192;
  bool anchor = false;
};

struct Context {
  Options opt;
  int sms = 0;
  size_t bytes = size_t(1) << 30;  // per buffer
  void* din[2] = {nullptr, nullptr};  // input pattern per dtype (0: int32, 1: f64)
  void* dout = nullptr;
  std::vector<int32_t> h32;
  std::vector<double> h64;
};

template <typename T> static const char* dtype_name() { return sizeof(T) == 4 ? "int32" : "f64"; }

template <typename T> static const T* input(Context& c) {
  const int k = sizeof(T) == 4 ? 0 : 1;
  if (!c.din[k]) {
    const size_t n = c.bytes / sizeof(T);
    std::vector<T> h(n);
    for (size_t j = 0; j < n; ++j) h[j] = T(j % 1000003);
    CHECK(cudaMalloc(&c.din[k], c.bytes));
    CHECK(cudaMemcpy(c.din[k], h.data(), c.bytes, cudaMemcpyHostToDevice));
    if constexpr (sizeof(T) == 4) c.h32.swap(h); else c.h64.swap(h);
  }
  return (const T*)c.din[k];
}

template <typename T> static const std::vector<T>& host_input(Context& c) {
  if constexpr (sizeof(T) == 4) return c.h32; else return c.h64;
}

template <class L>
static float median_ms(const Options& o, L launch) {
  cudaEvent_t a, b;
  CHECK(cudaEventCreate(&a));
  CHECK(cudaEventCreate(&b));
  for (int w = 0; w < o.warmup; ++w) launch();
  std::vector<float> t(o.runs);
  for (int r = 0; r < o.runs; ++r) {
    CHECK(cudaEventRecord(a));
    launch();
    CHECK(cudaEventRecord(b));
    CHECK(cudaEventSynchronize(b));
    CHECK(cudaEventElapsedTime(&t[r], a, b));
  }
  CHECK(cudaGetLastError());
  CHECK(cudaEventDestroy(a));
  CHECK(cudaEventDestroy(b));
  std::sort(t.begin(), t.end());
  return t[o.runs / 2];
}

// Checks tiles 0, 97, 194, ... and the last one of `tiles` against the host model run `reps`
// times on the same input.
template <class M, typename T>
static bool verify(Context& c, int B, int I, long tiles, int reps) {
  const long tile = (long)B * I;
  std::vector<T> back(tiles * tile);
  CHECK(cudaMemcpy(back.data(), c.dout, back.size() * sizeof(T), cudaMemcpyDeviceToHost));
  const std::vector<T>& h = host_input<T>(c);
  const int W = M::width;
  auto pos = [&](int t, int i) { return W == 0 ? pos_striped(t, i, B, I) : pos_lw_striped(t, i, W, I); };
  std::vector<T> r(tile), o(tile);
  std::vector<long> sample;
  for (long k = 0; k < tiles; k += 97) sample.push_back(k);
  if (sample.back() != tiles - 1) sample.push_back(tiles - 1);
  bool ok = true;
  for (long k : sample) {
    const T* src = h.data() + k * tile;
    const T* got = back.data() + k * tile;
    for (int t = 0; t < B; ++t)
      for (int i = 0; i < I; ++i) r[t * I + i] = src[pos(t, i)];
    for (int rep = 0; rep < reps; ++rep) {
      M::host(true, r, o, B, I);
      for (int t = 0; t < B; ++t)
        for (int i = 0; i < I; ++i) o[t * I + i] += T(t);
      M::host(false, o, r, B, I);
    }
    for (int t = 0; t < B && ok; ++t)
      for (int i = 0; i < I; ++i)
        if (got[pos(t, i)] != r[t * I + i]) {
          ok = false;
          break;
        }
    if (!ok) break;
  }
  return ok;
}

static void print_head(const char* kernel, const char* mode, const char* dtype, int B, int I, int W) {
  printf("%-4s %-22s %-5s block=%4d ipt=%2d width=%2d ", kernel, mode, dtype, B, I, W);
}

template <class M, typename T, int B, int I>
static void run_tile(Context& c) {
  using Op = typename M::template Impl<T, B, I>;
  const T* in = input<T>(c);
  T* out = (T*)c.dout;
  const long tiles = (long)(c.bytes / sizeof(T)) / (B * I);
  const long n = tiles * B * I;
  CHECK(cudaMemset(out, 0, c.bytes));
  tile_kernel<M, T, B, I><<<tiles, B>>>(in, out, 1);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  const bool ok = verify<M, T>(c, B, I, tiles, 1);
  const float ms = median_ms(c.opt, [&] { tile_kernel<M, T, B, I><<<tiles, B>>>(in, out, 1); });
  print_head("tile", M::name, dtype_name<T>(), B, I, M::width);
  printf("ms=%9.4f GB/s=%8.1f temp=%6zu %s\n", ms, 2.0 * n * sizeof(T) / (ms * 1e6),
         sizeof(typename Op::Storage), ok ? "OK" : "FAIL");
  fflush(stdout);
}

template <class M, typename T, int B, int I>
static void run_loop(Context& c) {
  using Op = typename M::template Impl<T, B, I>;
  const T* in = input<T>(c);
  T* out = (T*)c.dout;
  const int grid = c.opt.grid, reps = c.opt.reps;
  if ((size_t)grid * B * I * sizeof(T) > c.bytes) {
    fprintf(stderr, "--grid=%d too large for a 1 GiB buffer\n", grid);
    exit(2);
  }
  CHECK(cudaMemset(out, 0, c.bytes));
  loop_kernel<M, T, B, I><<<grid, B>>>(in, out, reps, 1);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  const bool ok = verify<M, T>(c, B, I, grid, reps);
  const float ms = median_ms(c.opt, [&] { loop_kernel<M, T, B, I><<<grid, B>>>(in, out, reps, 1); });
  const float base = median_ms(c.opt, [&] { loop_kernel<M, T, B, I><<<grid, B>>>(in, out, 0, 1); });
  const double ops = (double)grid * reps * M::ops(I) / c.sms;  // block-level ops per SM
  print_head("loop", M::name, dtype_name<T>(), B, I, M::width);
  printf("ms=%9.4f base_ms=%9.4f ns/op=%9.3f temp=%6zu %s\n", ms, base,
         reps > 0 ? (ms - base) * 1e6 / ops : 0.0, sizeof(typename Op::Storage), ok ? "OK" : "FAIL");
  fflush(stdout);
}

struct Entry {
  const char* kernel;
  const char* mode;
  const char* dtype;
  int block, ipt, width;
  std::function<void(Context&)> run;
};

template <class M, typename T, int B, int I>
static void add(std::vector<Entry>& v) {
  v.push_back({"tile", M::name, dtype_name<T>(), B, I, M::width, run_tile<M, T, B, I>});
  v.push_back({"loop", M::name, dtype_name<T>(), B, I, M::width, run_loop<M, T, B, I>});
}

// The compiled configurations (the same block/ipt pairs as cub_loadstore.cu and
// cub_warp_loadstore.cu; scalar shuffles at ipt 1 and 4).
template <class M, typename T>
static void add_block(std::vector<Entry>& v) {
  add<M, T, 128, 1>(v);
  add<M, T, 128, 4>(v);
  add<M, T, 256, 4>(v);
  add<M, T, 256, 8>(v);
  add<M, T, 128, 16>(v);
}

template <class M, typename T>
static void add_scalar(std::vector<Entry>& v) {
  add<M, T, 128, 1>(v);
  add<M, T, 256, 1>(v);
  add<M, T, 128, 4>(v);
  add<M, T, 256, 4>(v);
}

template <template <int> class M, typename T>
static void add_warp(std::vector<Entry>& v) {
  add<M<32>, T, 128, 4>(v);
  add<M<32>, T, 256, 8>(v);
  add<M<8>, T, 128, 4>(v);
  add<M<8>, T, 256, 8>(v);
}

template <typename T>
static void add_all(std::vector<Entry>& v) {
  add_block<striped, T>(v);
  add_block<striped_timesliced, T>(v);
  add_block<warp_striped, T>(v);
  add_block<scatter, T>(v);
  add_block<shuffle_up_down, T>(v);
  add_scalar<shuffle_offset, T>(v);
  add_scalar<shuffle_rotate, T>(v);
  add_warp<warp_exchange_striped, T>(v);
  add_warp<warp_exchange_scatter, T>(v);
}

static bool match(const std::string& filter, const std::string& value) {
  return filter == "all" || filter == value || (filter == "float64" && value == "f64");
}

int main(int argc, char** argv) {
  Options opt;
  std::vector<std::string> pos;
  for (int a = 1; a < argc; ++a) {
    const char* s = argv[a];
    if (!strncmp(s, "--runs=", 7)) opt.runs = atoi(s + 7);
    else if (!strncmp(s, "--warmup=", 9)) opt.warmup = atoi(s + 9);
    else if (!strncmp(s, "--reps=", 7)) opt.reps = atoi(s + 7);
    else if (!strncmp(s, "--grid=", 7)) opt.grid = atoi(s + 7);
    else if (!strcmp(s, "--anchor")) opt.anchor = true;
    else if (s[0] == '-') {
      fprintf(stderr, "unknown option %s (see the comment at the top of cub_exchange.cu)\n", s);
      return 2;
    } else pos.push_back(s);
  }
  if (opt.runs < 1 || opt.warmup < 0 || opt.reps < 0 || opt.grid < 1) {
    fprintf(stderr, "bad option value\n");
    return 2;
  }
  std::vector<Entry> entries;
  add_all<int32_t>(entries);
  add_all<double>(entries);

  const bool list = !pos.empty() && pos[0] == "list";
  if (list) pos.erase(pos.begin());
  if (pos.empty()) opt.anchor = opt.anchor || !list;
  if (pos.size() > 6) {
    fprintf(stderr, "usage: cub_exchange [list] [KERNEL [MODE [DTYPE [BLOCK [IPT [WIDTH]]]]]]\n");
    return 2;
  }
  pos.resize(6, "all");
  std::vector<const Entry*> chosen;
  for (const Entry& e : entries)
    if (match(pos[0], e.kernel) && match(pos[1], e.mode) && match(pos[2], e.dtype) &&
        match(pos[3], std::to_string(e.block)) && match(pos[4], std::to_string(e.ipt)) &&
        match(pos[5], std::to_string(e.width)))
      chosen.push_back(&e);
  if (chosen.empty()) {
    fprintf(stderr, "no configuration matches (run `cub_exchange list`)\n");
    return 2;
  }
  if (list) {
    for (const Entry* e : chosen)
      printf("%s %s %s %d %d %d\n", e->kernel, e->mode, e->dtype, e->block, e->ipt, e->width);
    return 0;
  }

  Context c;
  c.opt = opt;
  CHECK(cudaDeviceGetAttribute(&c.sms, cudaDevAttrMultiProcessorCount, 0));
  CHECK(cudaMalloc(&c.dout, c.bytes));
  printf("# cub_exchange: SMs=%d runs=%d warmup=%d loop reps=%d grid=%d\n", c.sms, opt.runs,
         opt.warmup, opt.reps, opt.grid);
  if (opt.anchor) {  // physical anchor: device-to-device copy of 1 GiB
    void* a;
    CHECK(cudaMalloc(&a, c.bytes));
    const float ms = median_ms(opt, [&] { cudaMemcpy(c.dout, a, c.bytes, cudaMemcpyDeviceToDevice); });
    printf("%-28s %8.1f GB/s\n", "cudaMemcpy D2D (anchor)", 2.0 * c.bytes / (ms * 1e6));
    CHECK(cudaFree(a));
  }
  for (const Entry* e : chosen) e->run(c);
  for (void* p : c.din) if (p) CHECK(cudaFree(p));
  CHECK(cudaFree(c.dout));
  return 0;
}
