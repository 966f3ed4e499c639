// CUB BlockReduce / WarpReduce / BlockScan / WarpScan: the C++ reference for cuda.coop's `reduce`,
// `sum` and scan-family collectives (docs/reduce-and-scan.md).
// Build: nvcc -O3 -arch=sm_90 -std=c++17 cub_reduce_scan.cu -o cub_reduce_scan
//   The CUB headers are the CUDA toolkit's own CCCL (/usr/local/cuda-13.0/include/cccl: CCCL 3.0.1
//   with nvcc 13.0, here and on the H200; nvcc finds them without -I). With another nvcc (e.g.
//   pip's nvidia-cuda-nvcc) add -I<that toolkit's include/cccl>. Only APIs that CCCL 3.0 and the
//   current CCCL main (3.6) share are used. The build instantiates 1284 kernels (all with
//   __launch_bounds__(BLOCK)) and takes ~4 CPU-minutes; the binary (cudart linked statically)
//   runs where it was not built, so building it off the GPU machine and carrying it saves
//   device time.
//
// Every configuration is a mode run by two kernels:
//
//   tile: memory bound over ~1 GiB (1<<28 4-byte or 1<<27 8-byte items, full tiles only).
//         A tile is BLOCK * IPT consecutive items; a block loads it with
//         cub::BlockLoad<BLOCK_LOAD_TRANSPOSE> (striped global reads, then BlockExchange to the
//         blocked order: thread t holds tile items t*IPT .. t*IPT+IPT-1). Warp modes split the
//         tile into BLOCK/WIDTH warp tiles of WIDTH * IPT consecutive items and load each with
//         cub::WarpLoad<WARP_LOAD_TRANSPOSE, WIDTH> (blocked within the warp tile). The load's
//         TempStorage and the collective's share one __shared__ union (per logical warp for warp
//         modes), so a reuse barrier (__syncthreads(); __syncwarp() for warps) follows the load.
//           reduce modes: load, barrier, reduce; thread 0 (lane 0 of each logical warp) writes
//             the aggregate: one item per tile (per warp tile). Bytes = items read + aggregates
//             written.
//           scan modes: load, barrier, scan, barrier, store with cub::BlockStore /
//             cub::WarpStore <..._STORE_TRANSPOSE> (blocked -> striped writes). Bytes = 2 * items.
//           prefix modes (exclusive_sum_prefix.*): a persistent grid, every block resident at
//             once (SMs * the kernel's blocks an SM, cudaOccupancyMaxActiveBlocksPerMultiprocessor;
//             printed as grid=); block b scans tiles [b*tiles/grid, (b+1)*tiles/grid) in order
//             with one BlockScan ExclusiveSum(items, out, prefix_op) per tile, prefix_op being CUB's
//             documented BlockPrefixCallbackOp (a running total, initially 0, carried from tile
//             to tile in each thread of warp 0): load, barrier, scan, barrier, store, barrier.
//         Reported as GB/s (bytes / median time) and as % of the cudaMemcpy D2D anchor's GB/s
//         (which counts the bytes it reads and writes).
//   loop: grid G (default 8192) blocks, one tile each: load the tile once with
//         cub::LoadDirectStriped (registers hold the striped items; the collectives treat them
//         as the tile in blocked order: logical item t*IPT+i is the one thread t holds in
//         register i), then R (default 64) times { op; feed the result back; barrier }, then
//         store the registers once (cub::StoreDirectStriped). The barrier is the TempStorage
//         reuse barrier CUB users must write: __syncthreads() for block collectives,
//         __syncwarp() for warp collectives. The feedback keeps every iteration dependent on the
//         previous one (nothing can be hoisted) and the values small and exact in every dtype:
//           reduce: the thread that holds the aggregate (thread 0; lane 0 of each logical warp)
//                   sets each of its items a[i] = wrap(a[i] + aggregate); other threads keep
//                   theirs. No broadcast (see below).
//           scan:   every thread sets a[i] = wrap(out[i]).
//         wrap(x) = x mod 256 (floor modulo): x & 255 for 4-byte integers, (x ^ (x >> 32)) &
//         255 for 8-byte ones (their high word folded in: with x & 255 alone nvcc computes an
//         int64 reduction or scan in 32 bits, as only the low byte is used), x - floor(x/256)*256
//         for floats. prefix modes: prefix_op keeps its running total as wrap(total + aggregate)
//         (otherwise float32 would round after a few iterations).
//         Also run with R = 0 (load + store only); reported as
//         ns/op = (t(R) - t(0)) * SMs / (G * R): the SM-time one collective operation (with its
//         feedback and barrier) takes.
//
// Broadcast: CUB's reductions return the aggregate in thread 0 only (lane 0 of each logical warp
// for WarpReduce); the other threads' return value is undefined. The kernels use it only there,
// i.e. cuda.coop's broadcast=False. (broadcast=True would need a __shared__ slot, a barrier and a
// load: it is not measured here.) Scans give every thread its outputs; no aggregate is asked for.
//
// Modes (width 0 = block; ".alg" is cuda.coop's `algorithm` string for the CUB algorithm):
//   sum.warp_reductions                BlockReduce<BLOCK_REDUCE_WARP_REDUCTIONS>::Sum(items)
//   sum.raking                         BlockReduce<BLOCK_REDUCE_RAKING>::Sum(items)
//   sum.raking_commutative_only        BlockReduce<BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY>::Sum(items)
//   max.warp_reductions                BlockReduce<BLOCK_REDUCE_WARP_REDUCTIONS>::Reduce(items,
//                                      cuda::maximum<>{})
//   sum_partial.<alg> (the 3 above)    valid_items: only the first valid(k) items of tile k (in
//                                      blocked order) take part, valid(k) = TILE - (k*7919) % TILE,
//                                      which runs over all of 1..TILE (k: tile index, or block
//                                      index in the loop kernel). The tile kernel loads only
//                                      those (BlockLoad::Load(ptr, items, valid)); every thread
//                                      sums its valid items and the block calls
//                                      BlockReduce::Sum(partial, ceil(valid / IPT)) (CUB's
//                                      num_valid counts threads; with IPT = 1 this is exactly
//                                      Sum(item, valid_items)). Bytes count only the valid items.
//   warp_sum (width 32, 16, 8)         cub::ThreadReduce(items, plus) then WarpReduce<T, W>::Sum
//   inclusive_sum.<alg>                BlockScan<alg>::InclusiveSum(items, out)
//   exclusive_sum.<alg>                BlockScan<alg>::ExclusiveSum(items, out)
//   exclusive_max.<alg>                BlockScan<alg>::ExclusiveScan(items, out, lowest,
//                                      cuda::maximum<>{}): initial_value =
//                                      numeric_limits<T>::lowest() (defined first output)
//   exclusive_sum_prefix.<alg>         BlockScan<alg>::ExclusiveSum(items, out, prefix_op) over
//                                      many tiles per block (see the tile kernel above)
//     scan <alg> is raking, raking_memoize or warp_scans (BLOCK_SCAN_RAKING, ..._MEMOIZE,
//     BLOCK_SCAN_WARP_SCANS); exclusive_max and exclusive_sum_prefix exist for all three.
//   warp_inclusive_sum, warp_exclusive_sum (width 32, 16)
//                                      WarpScan<T, W> on the warp tile (blocked): IPT = 1:
//                                      InclusiveSum / ExclusiveSum(item, out); IPT > 1 as
//                                      BlockScan does it: ThreadReduce, WarpScan::ExclusiveSum of
//                                      the thread totals, then a sequential scan of the thread's
//                                      items seeded with that prefix (CCCL 3.0's WarpScan has no
//                                      array overloads).
//
// Usage:
//   cub_reduce_scan                     everything, after a cudaMemcpy D2D anchor line
//   cub_reduce_scan list                the configurations: kernel mode dtype block ipt width
//   cub_reduce_scan KERNEL [MODE [DTYPE [BLOCK [IPT [WIDTH]]]]]   filters; "all" matches anything,
//     "a,b" what a or b matches
//     KERNEL: tile | loop; DTYPE: int32 | int64 | float32 | float64 (f32 and f64 also match)
//   options anywhere: --runs=N (21) --warmup=N (3) --reps=R (64) --grid=G (8192) --anchor
//   The anchor is measured (and its line printed) whenever a tile row is chosen or --anchor is
//   given.
// Configurations (642 per kernel; `list` prints them), each in int32, int64, float32, float64:
//   sum.*, inclusive_sum.*, exclusive_sum.*          BLOCK x IPT = 128x1 128x4 256x1 256x4 256x8
//                                                    512x4 512x8 1024x1 1024x4, and 1024x8 for
//                                                    4-byte dtypes (the 8-byte transpose storage
//                                                    would be 64 KiB, over 48 KiB static smem)
//   max.*, sum_partial.*, exclusive_max.*, exclusive_sum_prefix.*   128x1 256x4 256x8 1024x4
//   warp modes, each width                           128x1 256x1 256x4 1024x1 1024x4
// SASS (nvcc 13.0, cuobjdump --dump-resource-usage): 54 kernels have a stack frame. 48 are the
// BLOCK=1024 raking / raking_memoize scans in 8-byte dtypes (72..392 bytes: with 64 registers a
// thread, CUB's 32-item raking segment does not stay in registers); six others have 8..16 bytes
// (8-byte dtypes except one int32 512x4 exclusive_sum.raking loop). No stack elsewhere.
// Output: a header line "# cub_reduce_scan: SMs=132 runs=21 warmup=3 loop reps=64 grid=8192", the
// anchor line "cudaMemcpy D2D (anchor)        4100.0 GB/s", then one line per configuration, e.g.
//   tile sum.warp_reductions                  int32   block= 256 ipt= 4 width= 0 ms=   0.2600 GB/s=  4130.0 %memcpy= 100.7 temp=    44 OK
//   loop warp_inclusive_sum                   float64 block= 256 ipt= 4 width=16 ms=   0.5678 base_ms=   0.0123 ns/op=   12.345 temp=    16 OK
// ms is the median of --runs launches after --warmup, each timed with its own cudaEvent pair;
// temp is sizeof the collective's TempStorage per block (for warp modes: BLOCK/WIDTH times the
// per-warp TempStorage, which is an empty 1-byte struct for the shuffle-based warp collectives);
// the tile kernels' __shared__ union with the load/store storage is larger. OK/FAIL compares
// sampled tiles (every 97th and the last; for prefix modes every 97th block's whole run of tiles
// and the last block's) with a host model of the mode. Inputs are integers in [-7, 7] (a hash
// of the index), so every sum is exact in every dtype and the comparison is exact.
#include <cub/block/block_load.cuh>
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/block/block_store.cuh>
#include <cub/thread/thread_reduce.cuh>
#include <cub/warp/warp_load.cuh>
#include <cub/warp/warp_reduce.cuh>
#include <cub/warp/warp_scan.cuh>
#include <cub/warp/warp_store.cuh>

#include <cuda/functional>
#include <cuda/std/functional>
#include <cuda/std/limits>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <type_traits>
#include <vector>

#define CHECK(x)                                                                   \
  do {                                                                             \
    cudaError_t e_ = (x);                                                          \
    if (e_ != cudaSuccess) {                                                       \
      fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); \
      exit(1);                                                                     \
    }                                                                              \
  } while (0)

// ---- shared helpers -----------------------------------------------------------------------------
template <typename T>
__host__ __device__ __forceinline__ T wrap256(T x) {  // x mod 256, exact for integral values
  if constexpr (std::is_integral_v<T> && sizeof(T) == 8) return (x ^ (x >> 32)) & T(255);
  else if constexpr (std::is_integral_v<T>) return x & T(255);
  else if constexpr (sizeof(T) == 4) return x - floorf(x * 0.00390625f) * 256.0f;
  else return x - floor(x * 0.00390625) * 256.0;
}

// valid_items of tile (or loop block) k in the sum_partial modes: runs over all of 1..tile.
__host__ __device__ __forceinline__ int valid_items(long k, int tile) {
  return tile - (int)((k * 7919) % tile);
}

template <typename T>
__host__ __device__ __forceinline__ T lowest() {
  return ::cuda::std::numeric_limits<T>::lowest();
}

// CUB's BlockPrefixCallbackOp (block_scan.cuh docs): called by warp 0 with the tile aggregate,
// returns the prefix for this tile and carries the running total to the next one.
template <typename T, bool WRAP>
struct RunningTotal {
  T total;
  __device__ T operator()(T tile_aggregate) {
    const T old = total;
    total = WRAP ? wrap256(T(total + tile_aggregate)) : T(total + tile_aggregate);
    return old;
  }
};

enum class Family { reduce, scan, prefix };
enum class Kind { sum, max, inclusive_sum, exclusive_sum, exclusive_max, exclusive_sum_prefix };

// ---- modes --------------------------------------------------------------------------------------
// Each mode: name, width (0: block), family, kind, partial, and Impl<T, B, I> with S (the
// collective's TempStorage for one block or one logical warp) and run():
//   reduce:  T run(S&, T (&a)[I], int valid)     the aggregate (defined in the group's rank 0)
//   scan:    void run(S&, T (&a)[I], T (&o)[I])
//   prefix:  void run(S&, T (&a)[I], T (&o)[I], Callback&)

template <cub::BlockReduceAlgorithm A, bool MAX, bool PARTIAL>
struct block_reduce {
  static constexpr int width = 0;
  static constexpr Family family = Family::reduce;
  static constexpr Kind kind = MAX ? Kind::max : Kind::sum;
  static constexpr bool partial = PARTIAL;
  template <typename T, int B, int I>
  struct Impl {
    using R = cub::BlockReduce<T, B, A>;
    using S = typename R::TempStorage;
    static __device__ __forceinline__ T run(S& s, T (&a)[I], int valid) {
      if constexpr (!PARTIAL) {
        if constexpr (MAX) return R(s).Reduce(a, ::cuda::maximum<>{});
        else return R(s).Sum(a);
      } else {
        const int first = (int)threadIdx.x * I;
        T acc = a[0];
#pragma unroll
        for (int i = 1; i < I; ++i)
          if (first + i < valid) acc = MAX ? (acc < a[i] ? a[i] : acc) : T(acc + a[i]);
        const int threads = (valid + I - 1) / I;  // threads holding a valid item
        if constexpr (MAX) return R(s).Reduce(acc, ::cuda::maximum<>{}, threads);
        else return R(s).Sum(acc, threads);
      }
    }
  };
};
// Named structs (not aliases) so that the kernels' demangled names carry the mode's name.
struct sum_warp_reductions : block_reduce<cub::BLOCK_REDUCE_WARP_REDUCTIONS, false, false> {
  static constexpr const char* name = "sum.warp_reductions";
};
struct sum_raking : block_reduce<cub::BLOCK_REDUCE_RAKING, false, false> {
  static constexpr const char* name = "sum.raking";
};
struct sum_raking_commutative_only : block_reduce<cub::BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY, false, false> {
  static constexpr const char* name = "sum.raking_commutative_only";
};
struct max_warp_reductions : block_reduce<cub::BLOCK_REDUCE_WARP_REDUCTIONS, true, false> {
  static constexpr const char* name = "max.warp_reductions";
};
struct sum_partial_warp_reductions : block_reduce<cub::BLOCK_REDUCE_WARP_REDUCTIONS, false, true> {
  static constexpr const char* name = "sum_partial.warp_reductions";
};
struct sum_partial_raking : block_reduce<cub::BLOCK_REDUCE_RAKING, false, true> {
  static constexpr const char* name = "sum_partial.raking";
};
struct sum_partial_raking_commutative_only
    : block_reduce<cub::BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY, false, true> {
  static constexpr const char* name = "sum_partial.raking_commutative_only";
};

template <int W>
struct warp_sum {
  static constexpr const char* name = "warp_sum";
  static constexpr int width = W;
  static constexpr Family family = Family::reduce;
  static constexpr Kind kind = Kind::sum;
  static constexpr bool partial = false;
  template <typename T, int B, int I>
  struct Impl {
    using R = cub::WarpReduce<T, W>;
    using S = typename R::TempStorage;
    static __device__ __forceinline__ T run(S& s, T (&a)[I], int) {
      const T partial_sum = cub::ThreadReduce(a, ::cuda::std::plus<>{});
      return R(s).Sum(partial_sum);
    }
  };
};

template <cub::BlockScanAlgorithm A, Kind K>
struct block_scan {
  static constexpr int width = 0;
  static constexpr Family family = K == Kind::exclusive_sum_prefix ? Family::prefix : Family::scan;
  static constexpr Kind kind = K;
  static constexpr bool partial = false;
  template <typename T, int B, int I>
  struct Impl {
    using X = cub::BlockScan<T, B, A>;
    using S = typename X::TempStorage;
    static __device__ __forceinline__ void run(S& s, T (&a)[I], T (&o)[I]) {
      if constexpr (K == Kind::inclusive_sum) X(s).InclusiveSum(a, o);
      else if constexpr (K == Kind::exclusive_sum) X(s).ExclusiveSum(a, o);
      else X(s).ExclusiveScan(a, o, lowest<T>(), ::cuda::maximum<>{});
    }
    template <class Callback>
    static __device__ __forceinline__ void run(S& s, T (&a)[I], T (&o)[I], Callback& prefix_op) {
      X(s).ExclusiveSum(a, o, prefix_op);
    }
  };
};
#define SCAN_MODE(NAME, STRING, ALG, KIND)                 \
  struct NAME : block_scan<cub::ALG, Kind::KIND> {          \
    static constexpr const char* name = STRING;             \
  };
SCAN_MODE(inclusive_sum_raking, "inclusive_sum.raking", BLOCK_SCAN_RAKING, inclusive_sum)
SCAN_MODE(inclusive_sum_raking_memoize, "inclusive_sum.raking_memoize", BLOCK_SCAN_RAKING_MEMOIZE, inclusive_sum)
SCAN_MODE(inclusive_sum_warp_scans, "inclusive_sum.warp_scans", BLOCK_SCAN_WARP_SCANS, inclusive_sum)
SCAN_MODE(exclusive_sum_raking, "exclusive_sum.raking", BLOCK_SCAN_RAKING, exclusive_sum)
SCAN_MODE(exclusive_sum_raking_memoize, "exclusive_sum.raking_memoize", BLOCK_SCAN_RAKING_MEMOIZE, exclusive_sum)
SCAN_MODE(exclusive_sum_warp_scans, "exclusive_sum.warp_scans", BLOCK_SCAN_WARP_SCANS, exclusive_sum)
SCAN_MODE(exclusive_max_raking, "exclusive_max.raking", BLOCK_SCAN_RAKING, exclusive_max)
SCAN_MODE(exclusive_max_raking_memoize, "exclusive_max.raking_memoize", BLOCK_SCAN_RAKING_MEMOIZE, exclusive_max)
SCAN_MODE(exclusive_max_warp_scans, "exclusive_max.warp_scans", BLOCK_SCAN_WARP_SCANS, exclusive_max)
SCAN_MODE(exclusive_sum_prefix_raking, "exclusive_sum_prefix.raking", BLOCK_SCAN_RAKING, exclusive_sum_prefix)
SCAN_MODE(exclusive_sum_prefix_raking_memoize, "exclusive_sum_prefix.raking_memoize", BLOCK_SCAN_RAKING_MEMOIZE,
          exclusive_sum_prefix)
SCAN_MODE(exclusive_sum_prefix_warp_scans, "exclusive_sum_prefix.warp_scans", BLOCK_SCAN_WARP_SCANS,
          exclusive_sum_prefix)
#undef SCAN_MODE

template <int W, bool INCLUSIVE>
struct warp_scan_sum {
  static constexpr int width = W;
  static constexpr Family family = Family::scan;
  static constexpr Kind kind = INCLUSIVE ? Kind::inclusive_sum : Kind::exclusive_sum;
  static constexpr bool partial = false;
  template <typename T, int B, int I>
  struct Impl {
    using X = cub::WarpScan<T, W>;
    using S = typename X::TempStorage;
    static __device__ __forceinline__ void run(S& s, T (&a)[I], T (&o)[I]) {
      if constexpr (I == 1) {
        if constexpr (INCLUSIVE) X(s).InclusiveSum(a[0], o[0]);
        else X(s).ExclusiveSum(a[0], o[0]);
      } else {
        T running = cub::ThreadReduce(a, ::cuda::std::plus<>{});
        X(s).ExclusiveSum(running, running);  // lane 0 gets 0
#pragma unroll
        for (int i = 0; i < I; ++i) {
          if constexpr (INCLUSIVE) {
            running = running + a[i];
            o[i] = running;
          } else {
            o[i] = running;
            running = running + a[i];
          }
        }
      }
    }
  };
};
template <int W> struct warp_inclusive_sum : warp_scan_sum<W, true> {
  static constexpr const char* name = "warp_inclusive_sum";
};
template <int W> struct warp_exclusive_sum : warp_scan_sum<W, false> {
  static constexpr const char* name = "warp_exclusive_sum";
};

// ---- groups and tile I/O ------------------------------------------------------------------------
// Grp<T, B, I, W, S>: the block (W = 0) or the logical warps of W lanes, with
//   Smem (tile kernels: a union of the load, store and collective storage, per group),
//   OpSmem (loop kernels: the collective's storage only), unit()/op_unit() (this group's part),
//   groups (per block), group(), leader() (rank 0 of the group), sync() (the reuse barrier),
//   load/store of the tile kernels (transposes) and load/store_striped of the loop kernels.
// Tile pointers passed in are the block's tile; a warp works on its warp tile within it.
template <typename T, int B, int I, int W, class S>
struct Grp {  // logical warps
  static_assert(B % W == 0, "logical warps must tile the block");
  using Load = cub::WarpLoad<T, I, cub::WARP_LOAD_TRANSPOSE, W>;
  using Store = cub::WarpStore<T, I, cub::WARP_STORE_TRANSPOSE, W>;
  union Unit {
    typename Load::TempStorage load;
    typename Store::TempStorage store;
    S op;
  };
  struct Smem {
    Unit warp[B / W];
  };
  struct OpSmem {
    S warp[B / W];
  };
  static constexpr int groups = B / W;
  static __device__ __forceinline__ int group() { return threadIdx.x / W; }
  static __device__ __forceinline__ int lane() { return threadIdx.x % W; }
  static __device__ __forceinline__ bool leader() { return lane() == 0; }
  static __device__ __forceinline__ void sync() { __syncwarp(); }
  static __device__ __forceinline__ Unit& unit(Smem& s) { return s.warp[group()]; }
  static __device__ __forceinline__ S& op_unit(OpSmem& s) { return s.warp[group()]; }
  static __device__ __forceinline__ long offset() { return (long)group() * W * I; }
  static __device__ __forceinline__ void load(Unit& u, const T* tile, T (&a)[I]) {
    Load(u.load).Load(tile + offset(), a);
  }
  static __device__ __forceinline__ void store(Unit& u, T* tile, T (&a)[I]) {
    Store(u.store).Store(tile + offset(), a);
  }
  static __device__ __forceinline__ void load_striped(const T* tile, T (&a)[I]) {
    cub::LoadDirectStriped<W>(lane(), tile + offset(), a);
  }
  static __device__ __forceinline__ void store_striped(T* tile, T (&a)[I]) {
    cub::StoreDirectStriped<W>(lane(), tile + offset(), a);
  }
};

template <typename T, int B, int I, class S>
struct Grp<T, B, I, 0, S> {  // the block
  using Load = cub::BlockLoad<T, B, I, cub::BLOCK_LOAD_TRANSPOSE>;
  using Store = cub::BlockStore<T, B, I, cub::BLOCK_STORE_TRANSPOSE>;
  union Unit {
    typename Load::TempStorage load;
    typename Store::TempStorage store;
    S op;
  };
  using Smem = Unit;
  using OpSmem = S;
  static constexpr int groups = 1;
  static __device__ __forceinline__ int group() { return 0; }
  static __device__ __forceinline__ bool leader() { return threadIdx.x == 0; }
  static __device__ __forceinline__ void sync() { __syncthreads(); }
  static __device__ __forceinline__ Unit& unit(Smem& s) { return s; }
  static __device__ __forceinline__ S& op_unit(OpSmem& s) { return s; }
  static __device__ __forceinline__ void load(Unit& u, const T* tile, T (&a)[I]) { Load(u.load).Load(tile, a); }
  static __device__ __forceinline__ void load(Unit& u, const T* tile, T (&a)[I], int valid) {
    Load(u.load).Load(tile, a, valid);
  }
  static __device__ __forceinline__ void store(Unit& u, T* tile, T (&a)[I]) { Store(u.store).Store(tile, a); }
  static __device__ __forceinline__ void load_striped(const T* tile, T (&a)[I]) {
    cub::LoadDirectStriped<B>((int)threadIdx.x, tile, a);
  }
  static __device__ __forceinline__ void store_striped(T* tile, T (&a)[I]) {
    cub::StoreDirectStriped<B>((int)threadIdx.x, tile, a);
  }
};

template <class M, typename T, int B, int I>
using ImplOf = typename M::template Impl<T, B, I>;
template <class M, typename T, int B, int I>
using GrpOf = Grp<T, B, I, M::width, typename ImplOf<M, T, B, I>::S>;

// ---- kernels ------------------------------------------------------------------------------------
template <class M, typename T, int B, int I>
__global__ void __launch_bounds__(B) reduce_tile_kernel(const T* __restrict__ in, T* __restrict__ out) {
  using Op = ImplOf<M, T, B, I>;
  using G = GrpOf<M, T, B, I>;
  __shared__ typename G::Smem smem;
  auto& u = G::unit(smem);
  T a[I];
  const long k = blockIdx.x;
  const T* tile = in + k * B * I;
  int valid = B * I;
  if constexpr (M::partial) {
    valid = valid_items(k, B * I);
    G::load(u, tile, a, valid);
  } else {
    G::load(u, tile, a);
  }
  G::sync();  // the load's storage becomes the reduction's
  const T aggregate = Op::run(u.op, a, valid);
  if (G::leader()) out[k * G::groups + G::group()] = aggregate;
}

template <class M, typename T, int B, int I>
__global__ void __launch_bounds__(B) reduce_loop_kernel(const T* __restrict__ in, T* __restrict__ out, int reps) {
  using Op = ImplOf<M, T, B, I>;
  using G = GrpOf<M, T, B, I>;
  __shared__ typename G::OpSmem smem;
  auto& s = G::op_unit(smem);
  T a[I];
  const long k = blockIdx.x;
  G::load_striped(in + k * B * I, a);
  const int valid = M::partial ? valid_items(k, B * I) : B * I;
#pragma unroll 1
  for (int r = 0; r < reps; ++r) {
    const T aggregate = Op::run(s, a, valid);
    if (G::leader()) {
#pragma unroll
      for (int i = 0; i < I; ++i) a[i] = wrap256(T(a[i] + aggregate));
    }
    G::sync();
  }
  G::store_striped(out + k * B * I, a);
}

template <class M, typename T, int B, int I>
__global__ void __launch_bounds__(B) scan_tile_kernel(const T* __restrict__ in, T* __restrict__ out) {
  using Op = ImplOf<M, T, B, I>;
  using G = GrpOf<M, T, B, I>;
  __shared__ typename G::Smem smem;
  auto& u = G::unit(smem);
  T a[I], o[I];
  const long base = (long)blockIdx.x * B * I;
  G::load(u, in + base, a);
  G::sync();
  Op::run(u.op, a, o);
  G::sync();
  G::store(u, out + base, o);
}

template <class M, typename T, int B, int I>
__global__ void __launch_bounds__(B) prefix_tile_kernel(const T* __restrict__ in, T* __restrict__ out, long tiles) {
  using Op = ImplOf<M, T, B, I>;
  using G = GrpOf<M, T, B, I>;
  __shared__ typename G::Smem smem;
  auto& u = G::unit(smem);
  T a[I], o[I];
  RunningTotal<T, false> prefix_op{T(0)};
  const long k0 = blockIdx.x * tiles / gridDim.x, k1 = (blockIdx.x + 1) * tiles / gridDim.x;
#pragma unroll 1
  for (long k = k0; k < k1; ++k) {
    const long base = k * B * I;
    G::load(u, in + base, a);
    G::sync();
    Op::run(u.op, a, o, prefix_op);
    G::sync();
    G::store(u, out + base, o);
    G::sync();  // the next load reuses the store's storage
  }
}

template <class M, typename T, int B, int I>
__global__ void __launch_bounds__(B) scan_loop_kernel(const T* __restrict__ in, T* __restrict__ out, int reps) {
  using Op = ImplOf<M, T, B, I>;
  using G = GrpOf<M, T, B, I>;
  __shared__ typename G::OpSmem smem;
  auto& s = G::op_unit(smem);
  T a[I], o[I];
  const long base = (long)blockIdx.x * B * I;
  G::load_striped(in + base, a);
  [[maybe_unused]] RunningTotal<T, true> prefix_op{T(0)};
#pragma unroll 1
  for (int r = 0; r < reps; ++r) {
    if constexpr (M::family == Family::prefix) Op::run(s, a, o, prefix_op);
    else Op::run(s, a, o);
#pragma unroll
    for (int i = 0; i < I; ++i) a[i] = wrap256(o[i]);
    G::sync();
  }
  G::store_striped(out + base, a);
}

// ---- host side ----------------------------------------------------------------------------------
struct Options {
  int runs = 21, warmup = 3, reps = 64, grid = 8192;
  bool anchor = false;
};

struct Context {
  Options opt;
  int sms = 0;
  double anchor_gbs = 0;  // 0: not measured
  size_t bytes = size_t(1) << 30;      // per buffer
  void* din[4] = {nullptr, nullptr, nullptr, nullptr};  // input per dtype
  void* dout = nullptr;
  void* hout = nullptr;  // pinned host copy of dout (for the checks)
  std::vector<int32_t> h_i32;
  std::vector<int64_t> h_i64;
  std::vector<float> h_f32;
  std::vector<double> h_f64;
};

template <typename T> static constexpr int dtype_index() {
  if constexpr (std::is_same_v<T, int32_t>) return 0;
  else if constexpr (std::is_same_v<T, int64_t>) return 1;
  else if constexpr (std::is_same_v<T, float>) return 2;
  else return 3;
}
static const char* const dtype_names[4] = {"int32", "int64", "float32", "float64"};
template <typename T> static const char* dtype_name() { return dtype_names[dtype_index<T>()]; }

template <typename T> static std::vector<T>& host_input(Context& c) {
  if constexpr (dtype_index<T>() == 0) return c.h_i32;
  else if constexpr (dtype_index<T>() == 1) return c.h_i64;
  else if constexpr (dtype_index<T>() == 2) return c.h_f32;
  else return c.h_f64;
}

static int input_value(size_t j) {  // in [-7, 7]
  uint32_t h = (uint32_t)j * 2654435761u;
  h ^= h >> 15;
  h *= 2246822519u;
  h ^= h >> 13;
  return (int)(h % 15) - 7;
}

template <typename T> static const T* input(Context& c) {
  const int k = dtype_index<T>();
  if (!c.din[k]) {
    const size_t n = c.bytes / sizeof(T);
    std::vector<T>& h = host_input<T>(c);
    h.resize(n);
    for (size_t j = 0; j < n; ++j) h[j] = T(input_value(j));
    CHECK(cudaMalloc(&c.din[k], c.bytes));
    CHECK(cudaMemcpy(c.din[k], h.data(), c.bytes, cudaMemcpyHostToDevice));
  }
  return (const T*)c.din[k];
}

// The first `count` items of the output buffer, copied to the host.
template <typename T> static const T* output(Context& c, size_t count) {
  if (!c.hout) CHECK(cudaMallocHost(&c.hout, c.bytes));
  CHECK(cudaMemcpy(c.hout, c.dout, count * sizeof(T), cudaMemcpyDeviceToHost));
  return (const T*)c.hout;
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

// ---- host models --------------------------------------------------------------------------------
// A block's tile as the collective sees it ("logical", blocked order) is `groups` group tiles of
// gt = W*I (block: B*I) items, one after the other. In memory it is the same order for the tile
// kernels and, for the loop kernels, striped per group: logical item p of the block's tile is at
// loop_pos(p) from the tile's start.
static long loop_pos(long p, int B, int I, int W) {
  if (W == 0) return (p % I) * B + p / I;
  const long g = p / ((long)W * I), q = p % ((long)W * I);
  return g * W * I + (q % I) * W + q / I;
}

template <typename T>
static T host_reduce(Kind kind, const T* x, int n) {
  T acc = x[0];
  for (int p = 1; p < n; ++p) acc = kind == Kind::max ? std::max(acc, x[p]) : T(acc + x[p]);
  return acc;
}

// Scans x[0..n) into o; exclusive_sum_prefix starts from `prefix`. Returns the sum of x.
template <typename T>
static T host_scan(Kind kind, const T* x, T* o, int n, T prefix = T(0)) {
  T run = kind == Kind::exclusive_max ? lowest<T>() : kind == Kind::exclusive_sum_prefix ? prefix : T(0);
  T total = T(0);
  for (int p = 0; p < n; ++p) {
    total = T(total + x[p]);
    if (kind == Kind::inclusive_sum) {
      run = T(run + x[p]);
      o[p] = run;
    } else {
      o[p] = run;
      run = kind == Kind::exclusive_max ? std::max(run, x[p]) : T(run + x[p]);
    }
  }
  return total;
}

static std::vector<long> sample_of(long count) {
  std::vector<long> s;
  for (long k = 0; k < count; k += 97) s.push_back(k);
  if (s.back() != count - 1) s.push_back(count - 1);
  return s;
}

// tile kernel of a reduce mode: out[k * groups + g] = the aggregate of group tile g of tile k.
template <class M, typename T>
static bool verify_reduce_tile(Context& c, int B, int I, long tiles) {
  const int W = M::width, groups = W ? B / W : 1, gt = W ? W * I : B * I;
  const T* back = output<T>(c, tiles * groups);
  const std::vector<T>& h = host_input<T>(c);
  for (long k : sample_of(tiles))
    for (int g = 0; g < groups; ++g) {
      const int valid = M::partial ? valid_items(k, B * I) : gt;
      if (back[k * groups + g] != host_reduce(M::kind, h.data() + k * B * I + (long)g * gt, valid)) return false;
    }
  return true;
}

// loop kernel of a reduce mode: R times { aggregate of the group tile; rank 0's items
// a[i] = wrap(a[i] + aggregate) }.
template <class M, typename T>
static bool verify_reduce_loop(Context& c, int B, int I, long blocks, int reps) {
  const int W = M::width, groups = W ? B / W : 1, gt = W ? W * I : B * I;
  const long tile = (long)B * I;
  std::vector<T> L(tile);
  const T* back = output<T>(c, blocks * tile);
  const std::vector<T>& h = host_input<T>(c);
  for (long k : sample_of(blocks)) {
    for (long p = 0; p < tile; ++p) L[p] = h[k * tile + loop_pos(p, B, I, W)];
    const int valid = M::partial ? valid_items(k, B * I) : gt;
    for (int g = 0; g < groups; ++g) {
      T* x = L.data() + (long)g * gt;
      for (int r = 0; r < reps; ++r) {
        const T aggregate = host_reduce(M::kind, x, valid);
        for (int i = 0; i < I; ++i) x[i] = wrap256(T(x[i] + aggregate));
      }
    }
    for (long p = 0; p < tile; ++p)
      if (back[k * tile + loop_pos(p, B, I, W)] != L[p]) return false;
  }
  return true;
}

// tile kernel of a scan mode: each group tile scanned on its own.
template <class M, typename T>
static bool verify_scan_tile(Context& c, int B, int I, long tiles) {
  const int W = M::width, groups = W ? B / W : 1, gt = W ? W * I : B * I;
  const long tile = (long)B * I;
  std::vector<T> o(gt);
  const T* back = output<T>(c, tiles * tile);
  const std::vector<T>& h = host_input<T>(c);
  for (long k : sample_of(tiles))
    for (int g = 0; g < groups; ++g) {
      const long at = k * tile + (long)g * gt;
      host_scan(M::kind, h.data() + at, o.data(), gt);
      if (!std::equal(o.begin(), o.end(), back + at)) return false;
    }
  return true;
}

// tile kernel of a prefix mode: block b scans tiles [b*tiles/grid, (b+1)*tiles/grid) with a
// running total that starts at 0.
template <class M, typename T>
static bool verify_prefix_tile(Context& c, int B, int I, long tiles, long grid) {
  const long tile = (long)B * I;
  std::vector<T> o(tile);
  const T* back = output<T>(c, tiles * tile);
  const std::vector<T>& h = host_input<T>(c);
  for (long b : sample_of(grid)) {
    T total = T(0);
    for (long k = b * tiles / grid; k < (b + 1) * tiles / grid; ++k) {
      total = T(total + host_scan(M::kind, h.data() + k * tile, o.data(), (int)tile, total));
      if (!std::equal(o.begin(), o.end(), back + k * tile)) return false;
    }
  }
  return true;
}

// loop kernel of a scan or prefix mode: R times { scan; a = wrap(out) } (prefix: the running
// total starts at 0 and is kept as wrap(total + aggregate)).
template <class M, typename T>
static bool verify_scan_loop(Context& c, int B, int I, long blocks, int reps) {
  const int W = M::width, groups = W ? B / W : 1, gt = W ? W * I : B * I;
  const long tile = (long)B * I;
  std::vector<T> L(tile), o(gt);
  const T* back = output<T>(c, blocks * tile);
  const std::vector<T>& h = host_input<T>(c);
  for (long k : sample_of(blocks)) {
    for (long p = 0; p < tile; ++p) L[p] = h[k * tile + loop_pos(p, B, I, W)];
    for (int g = 0; g < groups; ++g) {
      T* x = L.data() + (long)g * gt;
      T total = T(0);
      for (int r = 0; r < reps; ++r) {
        const T sum = host_scan(M::kind, x, o.data(), gt, total);
        total = wrap256(T(total + sum));
        for (int p = 0; p < gt; ++p) x[p] = wrap256(o[p]);
      }
    }
    for (long p = 0; p < tile; ++p)
      if (back[k * tile + loop_pos(p, B, I, W)] != L[p]) return false;
  }
  return true;
}

// ---- runs ---------------------------------------------------------------------------------------
static void print_head(const char* kernel, const char* mode, const char* dtype, int B, int I, int W) {
  printf("%-4s %-36s %-7s block=%4d ipt=%2d width=%2d ", kernel, mode, dtype, B, I, W);
}

template <class M, typename T, int B, int I>
static size_t temp_bytes() {
  using S = typename ImplOf<M, T, B, I>::S;
  return sizeof(S) * (M::width ? B / M::width : 1);
}

// The persistent grid of the prefix modes' tile kernel: as many blocks as the SMs hold at once
// (its static shared memory and registers decide), at most one a tile.
template <class M, typename T, int B, int I>
static long prefix_grid(const Context& c, long tiles) {
  int resident = 0;
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&resident, prefix_tile_kernel<M, T, B, I>, B, 0));
  return std::min<long>(tiles, (long)c.sms * std::max(1, resident));
}

template <class M, typename T, int B, int I>
static void run_tile(Context& c) {
  const T* in = input<T>(c);
  T* out = (T*)c.dout;
  const long tiles = (long)(c.bytes / sizeof(T)) / (B * I);
  const long n = tiles * B * I;
  CHECK(cudaMemset(out, 0, c.bytes));
  std::function<void()> launch;
  long grid = 0;  // the prefix modes' persistent grid
  double bytes = 2.0 * n * sizeof(T);
  if constexpr (M::family == Family::reduce) {
    launch = [=] { reduce_tile_kernel<M, T, B, I><<<tiles, B>>>(in, out); };
    const int groups = M::width ? B / M::width : 1;
    double read = (double)n;
    if constexpr (M::partial) {
      read = 0;
      for (long k = 0; k < tiles; ++k) read += valid_items(k, B * I);
    }
    bytes = (read + (double)tiles * groups) * sizeof(T);
  } else if constexpr (M::family == Family::scan) {
    launch = [=] { scan_tile_kernel<M, T, B, I><<<tiles, B>>>(in, out); };
  } else {
    grid = prefix_grid<M, T, B, I>(c, tiles);
    launch = [=] { prefix_tile_kernel<M, T, B, I><<<grid, B>>>(in, out, tiles); };
  }
  launch();
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  bool ok;
  if constexpr (M::family == Family::reduce) ok = verify_reduce_tile<M, T>(c, B, I, tiles);
  else if constexpr (M::family == Family::scan) ok = verify_scan_tile<M, T>(c, B, I, tiles);
  else ok = verify_prefix_tile<M, T>(c, B, I, tiles, grid);
  const float ms = median_ms(c.opt, launch);
  const double gbs = bytes / (ms * 1e6);
  print_head("tile", M::name, dtype_name<T>(), B, I, M::width);
  printf("ms=%9.4f GB/s=%8.1f %%memcpy=%6.1f temp=%6zu %s", ms, gbs,
         c.anchor_gbs > 0 ? 100.0 * gbs / c.anchor_gbs : 0.0, temp_bytes<M, T, B, I>(), ok ? "OK" : "FAIL");
  if constexpr (M::family == Family::prefix) printf(" grid=%ld", grid);
  printf("\n");
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
  auto launch = [=](int r) {
    if constexpr (M::family == Family::reduce) reduce_loop_kernel<M, T, B, I><<<grid, B>>>(in, out, r);
    else scan_loop_kernel<M, T, B, I><<<grid, B>>>(in, out, r);
  };
  CHECK(cudaMemset(out, 0, c.bytes));
  launch(reps);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  bool ok;
  if constexpr (M::family == Family::reduce) ok = verify_reduce_loop<M, T>(c, B, I, grid, reps);
  else ok = verify_scan_loop<M, T>(c, B, I, grid, reps);
  const float ms = median_ms(c.opt, [&] { launch(reps); });
  const float base = median_ms(c.opt, [&] { launch(0); });
  const double ops = (double)grid * reps / c.sms;  // collective operations per SM
  print_head("loop", M::name, dtype_name<T>(), B, I, M::width);
  printf("ms=%9.4f base_ms=%9.4f ns/op=%9.3f temp=%6zu %s\n", ms, base,
         reps > 0 ? (ms - base) * 1e6 / ops : 0.0, temp_bytes<M, T, B, I>(), ok ? "OK" : "FAIL");
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

// The compiled configurations. The main block modes sweep ipt at 256 threads and the block size
// at ipt 4 (and ipt 1 at 128 and 1024); 1024 x 8 only for 4-byte types (the 8-byte transpose
// storage would be 64 KiB, over the 48 KiB of static shared memory). The other modes use fewer.
template <class M, typename T>
static void add_sweep(std::vector<Entry>& v) {
  add<M, T, 128, 1>(v);
  add<M, T, 128, 4>(v);
  add<M, T, 256, 1>(v);
  add<M, T, 256, 4>(v);
  add<M, T, 256, 8>(v);
  add<M, T, 512, 4>(v);
  add<M, T, 512, 8>(v);
  add<M, T, 1024, 1>(v);
  add<M, T, 1024, 4>(v);
  if constexpr (sizeof(T) == 4) add<M, T, 1024, 8>(v);
}

template <class M, typename T>
static void add_some(std::vector<Entry>& v) {
  add<M, T, 128, 1>(v);
  add<M, T, 256, 4>(v);
  add<M, T, 256, 8>(v);
  add<M, T, 1024, 4>(v);
}

template <template <int> class M, int W, typename T>
static void add_warp_width(std::vector<Entry>& v) {
  add<M<W>, T, 128, 1>(v);
  add<M<W>, T, 256, 1>(v);
  add<M<W>, T, 256, 4>(v);
  add<M<W>, T, 1024, 1>(v);
  add<M<W>, T, 1024, 4>(v);
}

template <typename T>
static void add_all(std::vector<Entry>& v) {
  add_sweep<sum_warp_reductions, T>(v);
  add_sweep<sum_raking, T>(v);
  add_sweep<sum_raking_commutative_only, T>(v);
  add_some<max_warp_reductions, T>(v);
  add_some<sum_partial_warp_reductions, T>(v);
  add_some<sum_partial_raking, T>(v);
  add_some<sum_partial_raking_commutative_only, T>(v);
  add_warp_width<warp_sum, 32, T>(v);
  add_warp_width<warp_sum, 16, T>(v);
  add_warp_width<warp_sum, 8, T>(v);
  add_sweep<inclusive_sum_raking, T>(v);
  add_sweep<inclusive_sum_raking_memoize, T>(v);
  add_sweep<inclusive_sum_warp_scans, T>(v);
  add_sweep<exclusive_sum_raking, T>(v);
  add_sweep<exclusive_sum_raking_memoize, T>(v);
  add_sweep<exclusive_sum_warp_scans, T>(v);
  add_some<exclusive_max_raking, T>(v);
  add_some<exclusive_max_raking_memoize, T>(v);
  add_some<exclusive_max_warp_scans, T>(v);
  add_some<exclusive_sum_prefix_raking, T>(v);
  add_some<exclusive_sum_prefix_raking_memoize, T>(v);
  add_some<exclusive_sum_prefix_warp_scans, T>(v);
  add_warp_width<warp_inclusive_sum, 32, T>(v);
  add_warp_width<warp_inclusive_sum, 16, T>(v);
  add_warp_width<warp_exclusive_sum, 32, T>(v);
  add_warp_width<warp_exclusive_sum, 16, T>(v);
}

static bool match_one(const std::string& filter, const std::string& value) {
  return filter == "all" || filter == value || (filter == "f32" && value == "float32") ||
         (filter == "f64" && value == "float64");
}

// A filter may list alternatives with commas ("sum.raking,exclusive_sum.raking").
static bool match(const std::string& filter, const std::string& value) {
  for (size_t start = 0;;) {
    const size_t comma = filter.find(',', start);
    if (match_one(filter.substr(start, comma - start), value)) return true;
    if (comma == std::string::npos) return false;
    start = comma + 1;
  }
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
      fprintf(stderr, "unknown option %s (see the comment at the top of cub_reduce_scan.cu)\n", s);
      return 2;
    } else pos.push_back(s);
  }
  if (opt.runs < 1 || opt.warmup < 0 || opt.reps < 0 || opt.grid < 1) {
    fprintf(stderr, "bad option value\n");
    return 2;
  }
  std::vector<Entry> entries;
  add_all<int32_t>(entries);
  add_all<int64_t>(entries);
  add_all<float>(entries);
  add_all<double>(entries);

  const bool list = !pos.empty() && pos[0] == "list";
  if (list) pos.erase(pos.begin());
  if (pos.size() > 6) {
    fprintf(stderr, "usage: cub_reduce_scan [list] [KERNEL [MODE [DTYPE [BLOCK [IPT [WIDTH]]]]]]\n");
    return 2;
  }
  pos.resize(6, "all");
  std::vector<const Entry*> chosen;
  bool any_tile = false;
  for (const Entry& e : entries)
    if (match(pos[0], e.kernel) && match(pos[1], e.mode) && match(pos[2], e.dtype) &&
        match(pos[3], std::to_string(e.block)) && match(pos[4], std::to_string(e.ipt)) &&
        match(pos[5], std::to_string(e.width))) {
      chosen.push_back(&e);
      any_tile = any_tile || !strcmp(e.kernel, "tile");
    }
  if (chosen.empty()) {
    fprintf(stderr, "no configuration matches (run `cub_reduce_scan list`)\n");
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
  printf("# cub_reduce_scan: SMs=%d runs=%d warmup=%d loop reps=%d grid=%d\n", c.sms, opt.runs,
         opt.warmup, opt.reps, opt.grid);
  if (opt.anchor || any_tile) {  // physical anchor: device-to-device copy of 1 GiB
    void* a;
    CHECK(cudaMalloc(&a, c.bytes));
    CHECK(cudaMemset(a, 0, c.bytes));
    const float ms = median_ms(opt, [&] { cudaMemcpy(c.dout, a, c.bytes, cudaMemcpyDeviceToDevice); });
    c.anchor_gbs = 2.0 * c.bytes / (ms * 1e6);
    printf("%-28s %8.1f GB/s\n", "cudaMemcpy D2D (anchor)", c.anchor_gbs);
    CHECK(cudaFree(a));
  }
  for (const Entry* e : chosen) e->run(c);
  for (void* p : c.din)
    if (p) CHECK(cudaFree(p));
  CHECK(cudaFree(c.dout));
  if (c.hout) CHECK(cudaFreeHost(c.hout));
  return 0;
}
