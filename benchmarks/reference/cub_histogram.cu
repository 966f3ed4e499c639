// CUB's block histogram: the C++ reference for cuda.coop's `histogram`
// (cub::BlockHistogram<T, BLOCK, IPT, BINS, ALGORITHM>, BLOCK_HISTO_ATOMIC and BLOCK_HISTO_SORT).
// Build: nvcc -O3 -arch=sm_90 -std=c++17 cub_histogram.cu -o cub_histogram
//
// Modes (width 0: the block; the histogram is a block collective only): block_histBINS, a block
// histogram of BINS bins by BLOCK_HISTO_ATOMIC, and block_histBINS_sort, the same by
// BLOCK_HISTO_SORT: block_hist256 of uint8 samples, block_hist64 and block_hist1024 of int32
// samples. An algorithm is a tag type named after CUB's (histo_atomic, histo_sort), so that the
// kernels' demangled names read tile_kernel<ALGORITHM, T, BINS, BLOCK, IPT>, which
// numba_histogram.py maps to rows. The counters are the caller's
// `__shared__ unsigned int counts[BINS]`: Histogram() zeroes them (striped: thread t zeroes bins
// t + i * BLOCK), then after its __syncthreads()
//   atomic: adds one shared atomicAdd a sample. BlockHistogramAtomic's TempStorage is an empty
//           struct no code touches; it is declared as CUB's documentation does.
//   sort:   radix sorts the samples in place (BlockRadixSort of every bit of T, 4-bit digits: 2
//           passes for uint8, 8 for int32), __syncthreads(), sets each bin's run bounds to the
//           tile's size, __syncthreads(), flags the run heads (BlockDiscontinuity), each head
//           writing its bin's begin and its predecessor's end, __syncthreads(), then the thread
//           of bin b (the same striping) adds end - begin to counts[b], a plain `+=`.
//           TempStorage is the union of the sort's and the runs' (the discontinuity's storage
//           and 2 * BINS unsigned ints). The run bounds are indexed by sample unchecked, so the
//           samples must lie in [0, BINS), as this input's do.
//
// Every configuration is run by two kernels, the samples loaded blocked (cub::LoadDirectBlocked;
// the loop kernel stores them the same way):
//
//   tile: ~1 GiB (1<<30 uint8 or 1<<28 int32 samples, full tiles: every tile is a power of two),
//         one tile per block: load -> Histogram(samples, counts) -> __syncthreads() -> each
//         thread adds its non-zero bins b = t, t + BLOCK, ... to a global histogram of BINS
//         unsigned ints (atomicAdd: one global atomic a non-zero bin and block). Reported as GB/s
//         of the input (bytes / median time).
//   loop: grid G (default 8192) blocks, one tile each: load once, then R (default 64) times
//         { Histogram(samples, counts); __syncthreads(); thread t reads its striped counters
//         c[i] = counts[t + i * BLOCK] (0 past the bins: what coop's fresh counters hold, slots
//         S = ceil(BINS / BLOCK)); sample i = (sample i + c[i % S]) & (BINS - 1); reuse barrier },
//         store once. Also run with R = 0 (load + store only); reported as
//         ns/op = (t(R) - t(0)) * SMs / (G * R): the SM-time one block histogram takes (with
//         reading the counters and the update).
//
// The reuse barrier at the end of a loop iteration is the one CUB's documentation asks of its
// users before the next Histogram() writes the counters others may still be reading. In this
// loop each thread reads exactly the bins its own InitHistogram zeroes, so it could be left
// out here; coop keeps one between back-to-back histograms too, so both sides pay the same three
// barriers an iteration around the atomic histogram. The sort rows keep both of the loop's
// barriers for the same pattern, though there the thread that reads bin b is the one that added
// its count, and Histogram()'s own barrier after zeroing separates the next sort's writes to
// TempStorage from the last reads of the runs. The sort loop histograms a copy of the samples:
// BlockHistogramSort sorts the array it is given, where the update needs them in their blocked
// order (as coop's histogram leaves its samples).
//
// The sample at position j is the harness's input hash reduced to the bins,
// ((uint32)(j * 2654435761) >> 12) % BINS: every sample is a bin (CUB's atomic algorithm indexes
// the counters unchecked; coop counts a sample only in [0, BINS), one compare that the uint8
// rows' 256 bins fold away), spread over the bins in no regular pattern.
//
// Usage:
//   cub_histogram                        everything, after a cudaMemcpy D2D anchor line
//   cub_histogram list                   the configurations: kernel mode dtype block ipt width
//   cub_histogram KERNEL [MODE [DTYPE [BLOCK [IPT [WIDTH]]]]]   filters; "all" matches anything
//   options anywhere: --runs=N (21) --warmup=N (3) --reps=R (64) --grid=G (8192) --anchor
// Output: a header line "# cub_histogram: SMs=132 runs=21 warmup=3 loop reps=64 grid=8192", the
// anchor line when asked (as in cub_loadstore.cu), then one line per configuration, e.g.
//   tile block_hist256          uint8 block= 128 ipt= 4 width= 0 ms=   0.2600 GB/s=  4200.0 temp=  1024 OK
//   loop block_hist256_sort     uint8 block= 128 ipt= 4 width= 0 ms=   0.5678 base_ms=   0.0123 ns/op=   12.345 temp=  5664 OK
// ms is the median of --runs launches after --warmup, each timed with its own cudaEvent pair;
// temp is the kernel's __shared__ bytes: the counters (BINS unsigned ints), and on sort rows
// the sort's TempStorage; OK/FAIL compares with a host model: the whole global histogram of tile
// rows (the input's own, counted on the host), every sample of the sampled tiles (every 97th and
// the last) of loop rows.
#include <cub/block/block_histogram.cuh>
#include <cub/block/block_load.cuh>
#include <cub/block/block_store.cuh>

#include <type_traits>

#include "reference_harness.cuh"

template <typename T> inline const char* sample_name() {
  static_assert(std::is_same_v<T, uint8_t> || std::is_same_v<T, int32_t>, "uint8 or int32 samples");
  return std::is_same_v<T, uint8_t> ? "uint8" : "int32";
}

// The algorithms: tag types named after CUB's, so that the kernels' names carry the mode.
struct histo_atomic {
  static constexpr cub::BlockHistogramAlgorithm algorithm = cub::BLOCK_HISTO_ATOMIC;
  static constexpr const char* suffix = "";
};
struct histo_sort {
  static constexpr cub::BlockHistogramAlgorithm algorithm = cub::BLOCK_HISTO_SORT;
  static constexpr const char* suffix = "_sort";
};

template <class A, int BINS> inline const char* mode_name() {
  static const std::string name = "block_hist" + std::to_string(BINS) + A::suffix;
  return name.c_str();
}

template <class A, typename T, int BINS, int B, int I>
using Histogram = cub::BlockHistogram<T, B, I, BINS, A::algorithm>;

// The kernel's __shared__ bytes (the temp column): the atomic algorithm's TempStorage is empty
// and unused, so nvcc allocates none.
template <class A, typename T, int BINS, int B, int I>
constexpr size_t temp_bytes =
    BINS * sizeof(unsigned int) + (A::algorithm == cub::BLOCK_HISTO_SORT
                                       ? sizeof(typename Histogram<A, T, BINS, B, I>::TempStorage)
                                       : 0);

// The counter slots a thread reads: coop's fresh counters' ceil(BINS / BLOCK).
template <int BINS, int B> constexpr int slots = (BINS + B - 1) / B;

// ---- kernels ----------------------------------------------------------------------------------
template <class A, typename T, int BINS, int B, int I>
__global__ void tile_kernel(const T* __restrict__ in, unsigned int* __restrict__ hist) {
  using H = Histogram<A, T, BINS, B, I>;
  __shared__ typename H::TempStorage temp_storage;
  __shared__ unsigned int counts[BINS];
  T a[I];
  cub::LoadDirectBlocked((int)threadIdx.x, in + (long)blockIdx.x * B * I, a);
  H(temp_storage).Histogram(a, counts);
  __syncthreads();
  for (int b = threadIdx.x; b < BINS; b += B)
    if (counts[b]) atomicAdd(&hist[b], counts[b]);
}

template <class A, typename T, int BINS, int B, int I>
__global__ void loop_kernel(const T* __restrict__ in, T* __restrict__ out, int reps) {
  using H = Histogram<A, T, BINS, B, I>;
  constexpr int S = slots<BINS, B>;
  __shared__ typename H::TempStorage temp_storage;
  __shared__ unsigned int counts[BINS];
  T a[I];
  const long base = (long)blockIdx.x * B * I;
  cub::LoadDirectBlocked((int)threadIdx.x, in + base, a);
#pragma unroll 1
  for (int r = 0; r < reps; ++r) {
    T copy[I];  // BLOCK_HISTO_SORT permutes what it counts (see the header)
#pragma unroll
    for (int i = 0; i < I; ++i) copy[i] = a[i];
    H(temp_storage).Histogram(copy, counts);
    __syncthreads();
    unsigned int c[S];
#pragma unroll
    for (int s = 0; s < S; ++s) {
      const int b = threadIdx.x + s * B;
      c[s] = b < BINS ? counts[b] : 0;
    }
#pragma unroll
    for (int i = 0; i < I; ++i) a[i] = T((a[i] + c[i % S]) & (BINS - 1));
    __syncthreads();  // reuse barrier
  }
  cub::StoreDirectBlocked((int)threadIdx.x, out + base, a);
}

// ---- host side --------------------------------------------------------------------------------

// The samples of the rows being run (1 GiB of one sample type reduced to one bin count) and the
// histogram of all of them. One set is kept at a time: add_all keeps a set's rows together.
struct Samples {
  size_t type = 0;
  int bins = 0;
  void* device = nullptr;
  std::vector<uint8_t> host;   // the samples' bytes
  std::vector<uint32_t> whole;
};
static Samples g_samples;

template <typename T, int BINS>
static const T* samples(Context& c) {
  Samples& s = g_samples;
  if (s.type != sizeof(T) || s.bins != BINS) {
    if (s.device) CHECK(cudaFree(s.device));
    const size_t n = c.bytes / sizeof(T);
    s.host.resize(c.bytes);
    s.whole.assign(BINS, 0);
    T* h = (T*)s.host.data();
    for (size_t j = 0; j < n; ++j) {
      h[j] = T(((uint32_t)(j * 2654435761u) >> 12) % BINS);
      ++s.whole[h[j]];
    }
    CHECK(cudaMalloc(&s.device, c.bytes));
    CHECK(cudaMemcpy(s.device, h, c.bytes, cudaMemcpyHostToDevice));
    s.type = sizeof(T);
    s.bins = BINS;
  }
  return (const T*)s.device;
}

// Loop rows: each sampled tile after `reps` histogram-and-update steps, every sample.
template <typename T, int BINS, int B, int I>
static bool verify_loop(Context& c, long tiles, int reps) {
  constexpr int S = slots<BINS, B>;
  const long tile = (long)B * I;
  std::vector<T> back(tiles * tile);
  CHECK(cudaMemcpy(back.data(), c.dout, back.size() * sizeof(T), cudaMemcpyDeviceToHost));
  const T* h = (const T*)g_samples.host.data();
  std::vector<T> r(tile);
  std::vector<uint32_t> counts(BINS);
  for (long k : sampled(tiles)) {
    std::copy(h + k * tile, h + (k + 1) * tile, r.begin());
    for (int rep = 0; rep < reps; ++rep) {
      std::fill(counts.begin(), counts.end(), 0);
      for (T x : r) ++counts[x];
      for (int t = 0; t < B; ++t)
        for (int i = 0; i < I; ++i) {
          const int b = t + (i % S) * B;
          T& x = r[t * I + i];
          x = T((x + (b < BINS ? counts[b] : 0u)) & (BINS - 1));
        }
    }
    if (!std::equal(r.begin(), r.end(), back.begin() + k * tile)) return false;
  }
  return true;
}

template <class A, typename T, int BINS, int B, int I>
static void run_tile(Context& c) {
  static_assert(((B * I) & (B * I - 1)) == 0, "a power-of-two tile: full tiles cover the input");
  const T* in = samples<T, BINS>(c);
  const long n = c.bytes / sizeof(T), tiles = n / (B * I);
  unsigned int* hist;
  CHECK(cudaMalloc(&hist, BINS * sizeof(unsigned int)));
  CHECK(cudaMemset(hist, 0, BINS * sizeof(unsigned int)));
  tile_kernel<A, T, BINS, B, I><<<tiles, B>>>(in, hist);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  std::vector<uint32_t> back(BINS);
  CHECK(cudaMemcpy(back.data(), hist, BINS * sizeof(unsigned int), cudaMemcpyDeviceToHost));
  const bool ok = back == g_samples.whole;
  const float ms = median_ms(c.opt, [&] { tile_kernel<A, T, BINS, B, I><<<tiles, B>>>(in, hist); });
  CHECK(cudaFree(hist));
  print_head("tile", mode_name<A, BINS>(), sample_name<T>(), B, I, 0);
  printf("ms=%9.4f GB/s=%8.1f temp=%6zu %s\n", ms, 1.0 * n * sizeof(T) / (ms * 1e6),
         temp_bytes<A, T, BINS, B, I>, ok ? "OK" : "FAIL");
  fflush(stdout);
}

template <class A, typename T, int BINS, int B, int I>
static void run_loop(Context& c) {
  const T* in = samples<T, BINS>(c);
  T* out = (T*)c.dout;
  const int grid = c.opt.grid, reps = c.opt.reps;
  if ((size_t)grid * B * I * sizeof(T) > c.bytes) {
    fprintf(stderr, "--grid=%d too large for a 1 GiB buffer\n", grid);
    exit(2);
  }
  CHECK(cudaMemset(out, 0, c.bytes));
  loop_kernel<A, T, BINS, B, I><<<grid, B>>>(in, out, reps);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  const bool ok = verify_loop<T, BINS, B, I>(c, grid, reps);
  const float ms =
      median_ms(c.opt, [&] { loop_kernel<A, T, BINS, B, I><<<grid, B>>>(in, out, reps); });
  const float base =
      median_ms(c.opt, [&] { loop_kernel<A, T, BINS, B, I><<<grid, B>>>(in, out, 0); });
  const double ops = (double)grid * reps / c.sms;  // block histograms per SM
  print_head("loop", mode_name<A, BINS>(), sample_name<T>(), B, I, 0);
  printf("ms=%9.4f base_ms=%9.4f ns/op=%9.3f temp=%6zu %s\n", ms, base,
         reps > 0 ? (ms - base) * 1e6 / ops : 0.0, temp_bytes<A, T, BINS, B, I>,
         ok ? "OK" : "FAIL");
  fflush(stdout);
}

template <class A, typename T, int BINS, int B, int I>
static void add(std::vector<Entry>& v) {
  const char* mode = mode_name<A, BINS>();
  v.push_back({"tile", mode, sample_name<T>(), B, I, 0, run_tile<A, T, BINS, B, I>});
  v.push_back({"loop", mode, sample_name<T>(), B, I, 0, run_loop<A, T, BINS, B, I>});
}

// The compiled configurations: algorithm, sample type, bins, block, samples a thread.
static void add_all(std::vector<Entry>& v) {
  add<histo_atomic, uint8_t, 256, 128, 4>(v);
  add<histo_atomic, uint8_t, 256, 256, 4>(v);
  add<histo_atomic, uint8_t, 256, 256, 8>(v);
  add<histo_atomic, uint8_t, 256, 512, 2>(v);
  add<histo_atomic, uint8_t, 256, 1024, 4>(v);
  add<histo_sort, uint8_t, 256, 128, 4>(v);
  add<histo_sort, uint8_t, 256, 256, 8>(v);
  add<histo_atomic, int32_t, 64, 256, 4>(v);
  add<histo_atomic, int32_t, 64, 128, 16>(v);
  add<histo_sort, int32_t, 64, 256, 4>(v);
  add<histo_sort, int32_t, 64, 128, 16>(v);
  add<histo_atomic, int32_t, 1024, 256, 4>(v);
  add<histo_atomic, int32_t, 1024, 128, 16>(v);
  add<histo_sort, int32_t, 1024, 256, 4>(v);
}

int main(int argc, char** argv) {
  std::vector<Entry> entries;
  add_all(entries);
  return reference_main(argc, argv, "cub_histogram", entries);
}
