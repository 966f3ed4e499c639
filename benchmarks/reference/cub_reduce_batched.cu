// A hand-written batched warp reduction: the C++ reference for cuda.coop's `reduce_batched`
// (CUB's WarpReduceBatched). The CCCL this benchmark was written against (CUDA 13.0's, CUB 3.0)
// has no cub::WarpReduceBatched, so this file writes the algorithm coop lowers to
// (lib/Conversion/CoopToGPU/ReduceBatched.cpp), by recursive halving with __shfl_xor_sync, as a
// CUDA C++ user would: no CUB at all.
// Build: nvcc -O3 -arch=sm_90 -std=c++17 cub_reduce_batched.cu -o cub_reduce_batched
//
// The algorithm (logical warps of W lanes, W a power of two; I batches, slot b of every lane is
// batch b; S = ceil(I / W) result slots a lane): the batches are padded to S * W (a padding
// batch takes the lane's last item, as coop's lowering does: its results are unspecified);
// batch b's owner is lane b % W, slot b / W (striped) or lane b / S, slot b % S (blocked). A lane
// starts with all S * W partials, partial k = s * W + t being the batch of owner t and slot s.
// For d = W/2 down to 1: of each pair of partials (owner bit d clear: lo, set: hi) the lane whose
// bit d is set keeps hi and sends lo, the other keeps lo and sends hi:
//   send = bit ? lo : hi;  keep = bit ? hi : lo;  v = op(keep, __shfl_xor_sync(~0u, send, d, W))
// which halves the partials (two selects, one shuffle -- two for f64 -- and one op a pair). After
// log2(W) steps lane r holds its S slots, each batch reduced over the W lanes. Everything is
// unrolled at compile time: the partials live in registers.
//
// Modes (all with logical warps of WIDTH lanes, a block of BLOCK threads = BLOCK/WIDTH of them):
//   sum_striped, sum_blocked   op +, results striped (slot i of lane r: batch r + i*W) or blocked
//                              (batch r*S + i); int32 and f64
//   max_striped, max_blocked   op max; int32 only
//
// Every configuration is run by two kernels (IPT is the batch count, B in the names below):
//
//   tile: ~1 GiB (1<<28 int32 or 1<<27 f64), B items a thread: thread g = blockIdx.x * BLOCK +
//         threadIdx.x is lane r = g % WIDTH of the logical warp whose W * B items start at
//         (g - r) * B, stored slot-major (CUB's LoadDirectStriped over the logical warp): the
//         lane loads slot b from in[(g - r) * B + b * W + r] (plain ld.global: see the kernels;
//         a warp's loads of one slot are coalesced), reduces batched and writes its S results
//         the same way, to out[(g - r) * S + i * W + r]. Reported as GB/s of the input (bytes /
//         median time).
//   loop: grid G (default 8192) blocks: each lane loads its B items once, then R (default 64)
//         times { r = reduce_batched(v); r[i] = 0 where slot i of the lane holds no batch (only
//         where B % WIDTH != 0); v[b] = fold(v[b], r[b % S]) }, then stores its B items where
//         it loaded them, in out. fold: int32 (v + r) & 0xFFFFF (sums never overflow: items stay below
//         2^20), f64 v * 0.5 + r * (0.5 / WIDTH). Also run with R = 0 (load + store only);
//         reported as ns/op = (t(R) - t(0)) * SMs / (G * R): the SM-time one step of a block
//         takes (BLOCK/WIDTH warps' reduce_batched, with the fold).
//
// The input is a hash of the position, (uint32)(j * 2654435761) >> 12 (below 2^20), as in
// cub_select.cu.
//
// Usage:
//   cub_reduce_batched                      everything, after a cudaMemcpy D2D anchor line
//   cub_reduce_batched list                 the configurations: kernel mode dtype block ipt width
//   cub_reduce_batched KERNEL [MODE [DTYPE [BLOCK [IPT [WIDTH]]]]]   filters; "all" matches anything
//   options anywhere: --runs=N (21) --warmup=N (3) --reps=R (64) --grid=G (8192) --anchor
// Output: a header line "# cub_reduce_batched: SMs=132 runs=21 warmup=3 loop reps=64 grid=8192",
// the anchor line when asked (as in cub_loadstore.cu), then one line per configuration, e.g.
//   tile sum_striped            int32 block= 128 ipt=32 width=32 ms=   0.2600 GB/s=  4200.0 temp=     0 OK
//   loop sum_striped            int32 block= 128 ipt=32 width=32 ms=   0.5678 base_ms=   0.0123 ns/op=   12.345 temp=     0 OK
// ms is the median of --runs launches after --warmup, each timed with its own cudaEvent pair;
// temp is the kernel's __shared__ storage (none); OK/FAIL compares sampled blocks (every 97th and
// the last) with a host model: the result slots that hold a batch in tile rows, every item of
// loop rows (f64: to a relative 1e-9, the lanes combine in butterfly order).
#include "reference_harness.cuh"

// ---- operators and modes ----------------------------------------------------------------------
struct Sum {
  template <typename T> __host__ __device__ __forceinline__ T operator()(T a, T b) const {
    return a + b;
  }
};
struct Max {
  template <typename T> __host__ __device__ __forceinline__ T operator()(T a, T b) const {
    return a > b ? a : b;
  }
};

// Each mode: name, width, striped (else blocked), Op.
#define MODE(NAME, OP, STRIPED)                                  \
  template <int W>                                               \
  struct NAME {                                                  \
    static constexpr const char* name = #NAME;                   \
    static constexpr int width = W;                              \
    static constexpr bool striped = STRIPED;                     \
    using Op = OP;                                               \
  };
MODE(sum_striped, Sum, true)
MODE(sum_blocked, Sum, false)
MODE(max_striped, Max, true)
MODE(max_blocked, Max, false)
#undef MODE

__host__ __device__ constexpr int slots_of(int batches, int width) {
  return (batches + width - 1) / width;
}

// The batch slot s of lane r holds in the result (>= I: padding, unspecified).
template <int W, int I, bool STRIPED>
__host__ __device__ __forceinline__ int batch_of(int r, int s) {
  return STRIPED ? r + s * W : r * slots_of(I, W) + s;
}

// One halving step (distance D) and the ones after it, on the partials v[0, S * 2D): partial
// s * 2D + t (t < 2D) is slot s of the owner whose bits below 2D are t; the new partial s * D + t
// takes the pair (t, t + D). In place: every write is below every later read. D is a template
// argument so that every loop has a constant trip count and unrolls (v stays in registers).
template <int D, int S, class Op, typename T, int N>
__device__ __forceinline__ void halve(T (&v)[N], int lane, Op op, int width) {
  if constexpr (D >= 1) {
    const bool upper = lane & D;
#pragma unroll
    for (int s = 0; s < S; ++s)
#pragma unroll
      for (int t = 0; t < D; ++t) {
        const T lo = v[s * 2 * D + t], hi = v[s * 2 * D + t + D];
        const T send = upper ? lo : hi, keep = upper ? hi : lo;
        v[s * D + t] = op(keep, __shfl_xor_sync(0xffffffffu, send, D, width));
      }
    halve<D / 2, S>(v, lane, op, width);
  }
}

// The batched reduction of a logical warp of W lanes; `lane` is the thread's rank in it.
template <int W, int I, bool STRIPED, class Op, typename T>
__device__ __forceinline__ void reduce_batched(const T (&in)[I], T (&out)[slots_of(I, W)],
                                               int lane, Op op) {
  static_assert(W >= 1 && W <= 32 && (W & (W - 1)) == 0, "a power-of-two logical warp");
  constexpr int S = slots_of(I, W);
  T v[S * W];
#pragma unroll
  for (int s = 0; s < S; ++s)
#pragma unroll
    for (int t = 0; t < W; ++t) {
      const int b = STRIPED ? s * W + t : t * S + s;  // owner t, slot s
      v[s * W + t] = in[b < I ? b : I - 1];
    }
  halve<W / 2, S>(v, lane, op, W);
#pragma unroll
  for (int s = 0; s < S; ++s) out[s] = v[s];
}

// The loop's update of an item by a result.
template <int W>
__host__ __device__ __forceinline__ int32_t fold(int32_t v, int32_t r) {
  return (v + r) & 0xFFFFF;
}
template <int W>
__host__ __device__ __forceinline__ double fold(double v, double r) {
  return v * 0.5 + r * (0.5 / W);
}

// ---- kernels ----------------------------------------------------------------------------------
// The pointers are not __restrict__: the loads are then plain ld.global, as the Numba kernels'
// coop.load of a mutable array; a const __restrict__ input would read through ld.global.nc, a
// difference in the loads, not in the reduction. The indexing is cub::LoadDirectStriped<W>'s.
template <class M, typename T, int B, int I>
__global__ void tile_kernel(const T* in, T* out) {
  constexpr int W = M::width, S = slots_of(I, W);
  const int lane = threadIdx.x % W;
  const long g = (long)blockIdx.x * B + threadIdx.x;
  const long first = g - lane;  // the logical warp's first thread
  T v[I], r[S];
#pragma unroll
  for (int b = 0; b < I; ++b) v[b] = in[first * I + b * W + lane];
  reduce_batched<W, I, M::striped>(v, r, lane, typename M::Op());
#pragma unroll
  for (int s = 0; s < S; ++s) out[first * S + s * W + lane] = r[s];
}

template <class M, typename T, int B, int I>
__global__ void loop_kernel(const T* in, T* out, int reps) {
  constexpr int W = M::width, S = slots_of(I, W);
  const int lane = threadIdx.x % W;
  const long g = (long)blockIdx.x * B + threadIdx.x;
  T v[I], r[S];
  const long first = g - lane;
  bool holds[S];  // whether slot s of the lane holds a batch
#pragma unroll
  for (int s = 0; s < S; ++s) holds[s] = batch_of<W, I, M::striped>(lane, s) < I;
#pragma unroll
  for (int b = 0; b < I; ++b) v[b] = in[first * I + b * W + lane];
#pragma unroll 1
  for (int rep = 0; rep < reps; ++rep) {
    reduce_batched<W, I, M::striped>(v, r, lane, typename M::Op());
    if constexpr (S * W != I) {
#pragma unroll
      for (int s = 0; s < S; ++s) r[s] = holds[s] ? r[s] : T(0);
    }
#pragma unroll
    for (int b = 0; b < I; ++b) v[b] = fold<W>(v[b], r[b % S]);
  }
#pragma unroll
  for (int b = 0; b < I; ++b) out[first * I + b * W + lane] = v[b];
}

// ---- host side --------------------------------------------------------------------------------

static bool same(int32_t a, int32_t b) { return a == b; }
static bool same(double a, double b) {
  return std::fabs(a - b) <= 1e-9 * std::max(std::fabs(a), std::fabs(b));
}

// The host model of one logical warp's batched reduction: v[W][I] (lane r's slot b at r * I + b)
// to res[W][S]; slots that hold no batch are left alone.
template <class M, typename T, int I>
static void host_reduce_batched(const T* v, T* res) {
  constexpr int W = M::width, S = slots_of(I, W);
  typename M::Op op;
  for (int r = 0; r < W; ++r)
    for (int s = 0; s < S; ++s) {
      const int b = batch_of<W, I, M::striped>(r, s);
      if (b >= I) continue;
      T total = v[b];
      for (int l = 1; l < W; ++l) total = op(total, v[l * I + b]);
      res[r * S + s] = total;
    }
}

// A logical warp's items as the kernels store them (slot b of lane r at b * W + r) to the
// host model's order (r * I + b).
template <int W, int I, typename T>
static void lanes_of(const T* stored, T* v) {
  for (int r = 0; r < W; ++r)
    for (int b = 0; b < I; ++b) v[r * I + b] = stored[b * W + r];
}

// Tile rows: the result slots that hold a batch, in every logical warp of the sampled blocks.
template <class M, typename T, int B, int I>
static bool verify_tile(Context& c, long blocks) {
  constexpr int W = M::width, S = slots_of(I, W);
  std::vector<T> back(blocks * B * S);
  CHECK(cudaMemcpy(back.data(), c.dout, back.size() * sizeof(T), cudaMemcpyDeviceToHost));
  const std::vector<T>& h = host_input<T>(c);
  std::vector<T> v(W * I), res(W * S);
  for (long k : sampled(blocks))
    for (int w = 0; w < B / W; ++w) {
      const long first = k * B + (long)w * W;  // the warp's first thread
      lanes_of<W, I>(h.data() + first * I, v.data());
      host_reduce_batched<M, T, I>(v.data(), res.data());
      for (int r = 0; r < W; ++r)
        for (int s = 0; s < S; ++s)
          if (batch_of<W, I, M::striped>(r, s) < I &&
              !same(back[first * S + s * W + r], res[r * S + s]))
            return false;
    }
  return true;
}

// Loop rows: every item of the sampled blocks after `reps` steps.
template <class M, typename T, int B, int I>
static bool verify_loop(Context& c, long blocks, int reps) {
  constexpr int W = M::width, S = slots_of(I, W);
  std::vector<T> back(blocks * B * I);
  CHECK(cudaMemcpy(back.data(), c.dout, back.size() * sizeof(T), cudaMemcpyDeviceToHost));
  const std::vector<T>& h = host_input<T>(c);
  std::vector<T> v(W * I), res(W * S);
  for (long k : sampled(blocks))
    for (int w = 0; w < B / W; ++w) {
      const long first = k * B + (long)w * W;
      lanes_of<W, I>(h.data() + first * I, v.data());
      for (int rep = 0; rep < reps; ++rep) {
        std::fill(res.begin(), res.end(), T(0));  // slots without a batch fold 0
        host_reduce_batched<M, T, I>(v.data(), res.data());
        for (int r = 0; r < W; ++r)
          for (int b = 0; b < I; ++b) v[r * I + b] = fold<W>(v[r * I + b], res[r * S + b % S]);
      }
      for (int r = 0; r < W; ++r)
        for (int b = 0; b < I; ++b)
          if (!same(back[first * I + b * W + r], v[r * I + b])) return false;
    }
  return true;
}

template <class M, typename T, int B, int I>
static void run_tile(Context& c) {
  const T* in = input<T>(c);
  T* out = (T*)c.dout;
  const long blocks = (long)(c.bytes / sizeof(T)) / (B * I);
  const long n = blocks * B * I;
  CHECK(cudaMemset(out, 0, c.bytes));
  tile_kernel<M, T, B, I><<<blocks, B>>>(in, out);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  const bool ok = verify_tile<M, T, B, I>(c, blocks);
  const float ms = median_ms(c.opt, [&] { tile_kernel<M, T, B, I><<<blocks, B>>>(in, out); });
  print_head("tile", M::name, dtype_name<T>(), B, I, M::width);
  printf("ms=%9.4f GB/s=%8.1f temp=%6d %s\n", ms, 1.0 * n * sizeof(T) / (ms * 1e6), 0,
         ok ? "OK" : "FAIL");
  fflush(stdout);
}

template <class M, typename T, int B, int I>
static void run_loop(Context& c) {
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
  const bool ok = verify_loop<M, T, B, I>(c, grid, reps);
  const float ms = median_ms(c.opt, [&] { loop_kernel<M, T, B, I><<<grid, B>>>(in, out, reps); });
  const float base = median_ms(c.opt, [&] { loop_kernel<M, T, B, I><<<grid, B>>>(in, out, 0); });
  const double ops = (double)grid * reps / c.sms;  // block steps per SM
  print_head("loop", M::name, dtype_name<T>(), B, I, M::width);
  printf("ms=%9.4f base_ms=%9.4f ns/op=%9.3f temp=%6d %s\n", ms, base,
         reps > 0 ? (ms - base) * 1e6 / ops : 0.0, 0, ok ? "OK" : "FAIL");
  fflush(stdout);
}

template <class M, typename T, int B, int I>
static void add(std::vector<Entry>& v) {
  v.push_back({"tile", M::name, dtype_name<T>(), B, I, M::width, run_tile<M, T, B, I>});
  v.push_back({"loop", M::name, dtype_name<T>(), B, I, M::width, run_loop<M, T, B, I>});
}

// One (WIDTH, BLOCK, IPT) configuration in every mode of the dtype (max: int32 only).
template <typename T, int W, int B, int I>
static void add_config(std::vector<Entry>& v) {
  add<sum_striped<W>, T, B, I>(v);
  add<sum_blocked<W>, T, B, I>(v);
  if constexpr (sizeof(T) == 4) {
    add<max_striped<W>, T, B, I>(v);
    add<max_blocked<W>, T, B, I>(v);
  }
}

// The compiled configurations: (WIDTH, BLOCK, IPT = batches).
template <typename T>
static void add_all(std::vector<Entry>& v) {
  add_config<T, 32, 128, 32>(v);
  add_config<T, 32, 128, 64>(v);
  add_config<T, 32, 256, 32>(v);
  add_config<T, 16, 128, 16>(v);
  add_config<T, 8, 128, 8>(v);
  add_config<T, 8, 128, 32>(v);
  add_config<T, 32, 128, 8>(v);
}

int main(int argc, char** argv) {
  std::vector<Entry> entries;
  add_all<int32_t>(entries);
  add_all<double>(entries);
  return reference_main(argc, argv, "cub_reduce_batched", entries);
}
