// CUB's block run-length decode: the C++ reference for cuda.coop's `run_length_decode`
// (cub::BlockRunLengthDecode<T, BLOCK, RUNS, DECODED>, its default uint32 offsets).
// Build: nvcc -O3 -arch=sm_90 -std=c++17 cub_run_length_decode.cu -o cub_run_length_decode
//
// Modes (width 0: the block; the decode is a block collective only): block_rld_runsR, RUNS = R
// runs a thread (blocked: thread t holds runs t * R .. t * R + R - 1), decoded into windows of
// DECODED items a thread (the ipt column). A mode is a tag type named as the mode, so that the
// kernels' demangled names read as cub_exchange's (tile_kernel<MODE, T, BLOCK, IPT>), which
// numba_exchange.py maps to rows.
//
// The runs: run j's value is the harness's input at j, (uint32)(j * 2654435761) >> 12 (int32 or
// f64), its length the uint32 4 + ((uint32)(j * 2654435761) >> 29), 4 .. 11. Lengths of at least
// MIN_LENGTH = 4 >= DECODED / RUNS of every configuration put every window below inside its
// stream: past the end CUB repeats the last run where coop gives 0, and CUB leaves a window offset
// past the stream's length undefined. No run is empty (CUB allows zero-length runs only last).
//
// Every configuration is run by two kernels, the runs loaded and the items stored blocked
// (cub::LoadDirectBlocked, StoreDirectBlocked):
//
//   tile: tiles = (1 GiB / sizeof(T)) / (BLOCK * max(RUNS, DECODED)) (the larger of a block's
//         runs and its window fills 1 GiB), one a block: load the block's values and lengths ->
//         BlockRunLengthDecode(temp_storage, values, lengths, total) (an ExclusiveSum of the
//         lengths, the runs to shared memory) -> RunLengthDecode(items, 0), the first window ->
//         store it, and thread 0 the total to totals[block]. Reported as GB/s of the decoded
//         output written (tiles * BLOCK * DECODED * sizeof(T) / median time); the kernel also
//         reads the runs, RUNS / DECODED as many values and as many uint32 lengths.
//   loop: grid G (default 8192) blocks load their runs once, then R (default 64) times
//         { construct the decoder (total); RunLengthDecode(items, offset); value i =
//         items[i % DECODED] for i < RUNS, then value i % RUNS += items[i] for RUNS <= i <
//         DECODED (every decoded item is read: none is dead code); offset += BLOCK * DECODED, back to 0 where the next window
//         would pass the total; reuse barrier } from offset 0, then store the values. Also run with R = 0 (load +
//         store only); reported as ns/op = (t(R) - t(0)) * SMs / (G * R): the SM-time one decode
//         takes (with the update). The values carry each window into the next decode and the
//         offset each total into the next window, so no iteration is dead or loop-invariant.
//
// The decoder is constructed in every iteration because coop's run_length_decode takes the runs
// each call (the scan, the runs to shared memory and the search are one op). The reuse barrier is
// the one CUB users write before the next construction's scan writes the storage (a union of the
// scan's and the runs') that other threads may still be decoding from.
//
// Usage:
//   cub_run_length_decode                 everything, after a cudaMemcpy D2D anchor line
//   cub_run_length_decode list            the configurations: kernel mode dtype block ipt width
//   cub_run_length_decode KERNEL [MODE [DTYPE [BLOCK [IPT [WIDTH]]]]]   filters; "all": anything
//   options anywhere: --runs=N (21) --warmup=N (3) --reps=R (64) --grid=G (8192) --anchor
// Output: a header line "# cub_run_length_decode: SMs=132 runs=21 warmup=3 loop reps=64
// grid=8192", the anchor line when asked (as in cub_loadstore.cu), then one line per
// configuration, e.g.
//   tile block_rld_runs2        int32 block= 128 ipt= 4 width= 0 ms=   0.2600 GB/s=  4200.0 temp=  2048 OK
//   loop block_rld_runs2        int32 block= 128 ipt= 4 width= 0 ms=   0.5678 base_ms=   0.0123 ns/op=   12.345 temp=  2048 OK
// ms is the median of --runs launches after --warmup, each timed with its own cudaEvent pair;
// temp is sizeof the decoder's TempStorage; OK/FAIL compares with a host model (the runs
// expanded): every total and the window of the sampled tiles (every 97th and the last) of tile
// rows, the values of the sampled tiles after `reps` steps of loop rows.
#include <cub/block/block_load.cuh>
#include <cub/block/block_run_length_decode.cuh>
#include <cub/block/block_store.cuh>

#include "reference_harness.cuh"

// The modes: tag types named as their rows, so that the kernels' names carry the mode.
struct block_rld_runs1 {
  static constexpr const char* name = "block_rld_runs1";
  static constexpr int runs = 1;
};
struct block_rld_runs2 {
  static constexpr const char* name = "block_rld_runs2";
  static constexpr int runs = 2;
};
struct block_rld_runs4 {
  static constexpr const char* name = "block_rld_runs4";
  static constexpr int runs = 4;
};

constexpr uint32_t MIN_LENGTH = 4;  // >= DECODED / RUNS: every window inside its stream

template <typename T, int B, int R, int D>
using Decode = cub::BlockRunLengthDecode<T, B, R, D>;

// ---- kernels ----------------------------------------------------------------------------------
template <class Mode, typename T, int B, int D>
__global__ void tile_kernel(const T* __restrict__ values, const uint32_t* __restrict__ lengths,
                            T* __restrict__ out, uint32_t* __restrict__ totals) {
  constexpr int R = Mode::runs;
  __shared__ typename Decode<T, B, R, D>::TempStorage temp_storage;
  const long base = (long)blockIdx.x * B * R;
  T v[R];
  uint32_t l[R];
  cub::LoadDirectBlocked((int)threadIdx.x, values + base, v);
  cub::LoadDirectBlocked((int)threadIdx.x, lengths + base, l);
  uint32_t total;
  T items[D];
  Decode<T, B, R, D>(temp_storage, v, l, total).RunLengthDecode(items, 0u);
  cub::StoreDirectBlocked((int)threadIdx.x, out + (long)blockIdx.x * B * D, items);
  if (threadIdx.x == 0) totals[blockIdx.x] = total;
}

template <class Mode, typename T, int B, int D>
__global__ void loop_kernel(const T* __restrict__ values, const uint32_t* __restrict__ lengths,
                            T* __restrict__ out, int reps) {
  constexpr int R = Mode::runs;
  __shared__ typename Decode<T, B, R, D>::TempStorage temp_storage;
  const long base = (long)blockIdx.x * B * R;
  T v[R];
  uint32_t l[R];
  cub::LoadDirectBlocked((int)threadIdx.x, values + base, v);
  cub::LoadDirectBlocked((int)threadIdx.x, lengths + base, l);
  uint32_t offset = 0;
#pragma unroll 1
  for (int r = 0; r < reps; ++r) {
    uint32_t total;
    T items[D];
    Decode<T, B, R, D>(temp_storage, v, l, total).RunLengthDecode(items, offset);
#pragma unroll
    for (int i = 0; i < R; ++i) v[i] = items[i % D];
#pragma unroll
    for (int i = R; i < D; ++i) v[i % R] += items[i];
    offset += B * D;
    if (offset + B * D > total) offset = 0;
    __syncthreads();  // reuse barrier
  }
  cub::StoreDirectBlocked((int)threadIdx.x, out + base, v);
}

// ---- host side --------------------------------------------------------------------------------

// The runs' lengths, one a position of the largest value buffer (1<<28 int32 values), for every
// row.
struct Lengths {
  uint32_t* device = nullptr;
  std::vector<uint32_t> host;
};
static Lengths g_lengths;

static const uint32_t* lengths(Context& c) {
  Lengths& l = g_lengths;
  if (!l.device) {
    const size_t n = c.bytes / sizeof(uint32_t);
    l.host.resize(n);
    for (size_t j = 0; j < n; ++j) l.host[j] = MIN_LENGTH + ((uint32_t)(j * 2654435761u) >> 29);
    CHECK(cudaMalloc(&l.device, c.bytes));
    CHECK(cudaMemcpy(l.device, l.host.data(), c.bytes, cudaMemcpyHostToDevice));
  }
  return l.device;
}

// Runs expanded into their stream, as np.repeat(values, lengths).
template <typename T>
static std::vector<T> expand(const T* values, const uint32_t* lengths, long runs) {
  std::vector<T> s;
  for (long r = 0; r < runs; ++r) s.insert(s.end(), lengths[r], values[r]);
  return s;
}

// Tile rows: every tile's total, and the first window of the sampled tiles.
template <typename T, int B, int R, int D>
static bool verify_tile(Context& c, long tiles, const uint32_t* dtotals) {
  std::vector<uint32_t> totals(tiles);
  CHECK(cudaMemcpy(totals.data(), dtotals, tiles * sizeof(uint32_t), cudaMemcpyDeviceToHost));
  const uint32_t* l = g_lengths.host.data();
  for (long k = 0; k < tiles; ++k) {
    uint32_t sum = 0;
    for (long r = k * B * R; r < (k + 1) * B * R; ++r) sum += l[r];
    if (totals[k] != sum) return false;
  }
  const long window = (long)B * D;
  std::vector<T> back(tiles * window);
  CHECK(cudaMemcpy(back.data(), c.dout, back.size() * sizeof(T), cudaMemcpyDeviceToHost));
  const T* h = host_input<T>(c).data();
  for (long k : sampled(tiles)) {
    const std::vector<T> s = expand(h + k * B * R, l + k * B * R, B * R);
    if (!std::equal(s.begin(), s.begin() + window, back.begin() + k * window)) return false;
  }
  return true;
}

// Loop rows: the values of each sampled tile after `reps` decode-and-update steps.
template <typename T, int B, int R, int D>
static bool verify_loop(Context& c, long tiles, int reps) {
  const long tile = (long)B * R;
  std::vector<T> back(tiles * tile);
  CHECK(cudaMemcpy(back.data(), c.dout, back.size() * sizeof(T), cudaMemcpyDeviceToHost));
  const T* h = host_input<T>(c).data();
  const uint32_t* l = g_lengths.host.data();
  std::vector<T> v(tile);
  for (long k : sampled(tiles)) {
    std::copy(h + k * tile, h + (k + 1) * tile, v.begin());
    uint32_t offset = 0;
    for (int rep = 0; rep < reps; ++rep) {
      const std::vector<T> s = expand(v.data(), l + k * tile, tile);
      for (int t = 0; t < B; ++t) {
        for (int i = 0; i < R; ++i) v[t * R + i] = s[offset + t * D + i % D];
        for (int i = R; i < D; ++i) v[t * R + i % R] += s[offset + t * D + i];
      }
      offset += B * D;
      if (offset + B * D > s.size()) offset = 0;
    }
    if (!std::equal(v.begin(), v.end(), back.begin() + k * tile)) return false;
  }
  return true;
}

template <class Mode, typename T, int B, int D>
static void run_tile(Context& c) {
  constexpr int R = Mode::runs;
  const T* values = input<T>(c);
  const uint32_t* len = lengths(c);
  const long tiles = (long)(c.bytes / sizeof(T)) / (B * std::max(R, D));
  uint32_t* totals;
  CHECK(cudaMalloc(&totals, tiles * sizeof(uint32_t)));
  CHECK(cudaMemset(totals, 0, tiles * sizeof(uint32_t)));
  CHECK(cudaMemset(c.dout, 0, c.bytes));
  tile_kernel<Mode, T, B, D><<<tiles, B>>>(values, len, (T*)c.dout, totals);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  const bool ok = verify_tile<T, B, R, D>(c, tiles, totals);
  const float ms = median_ms(c.opt, [&] {
    tile_kernel<Mode, T, B, D><<<tiles, B>>>(values, len, (T*)c.dout, totals);
  });
  CHECK(cudaFree(totals));
  print_head("tile", Mode::name, dtype_name<T>(), B, D, 0);
  printf("ms=%9.4f GB/s=%8.1f temp=%6zu %s\n", ms, 1.0 * tiles * B * D * sizeof(T) / (ms * 1e6),
         sizeof(typename Decode<T, B, R, D>::TempStorage), ok ? "OK" : "FAIL");
  fflush(stdout);
}

template <class Mode, typename T, int B, int D>
static void run_loop(Context& c) {
  constexpr int R = Mode::runs;
  const T* values = input<T>(c);
  const uint32_t* len = lengths(c);
  T* out = (T*)c.dout;
  const int grid = c.opt.grid, reps = c.opt.reps;
  if ((size_t)grid * B * R * sizeof(T) > c.bytes) {
    fprintf(stderr, "--grid=%d too large for a 1 GiB buffer\n", grid);
    exit(2);
  }
  CHECK(cudaMemset(out, 0, c.bytes));
  loop_kernel<Mode, T, B, D><<<grid, B>>>(values, len, out, reps);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  const bool ok = verify_loop<T, B, R, D>(c, grid, reps);
  const float ms = median_ms(c.opt, [&] {
    loop_kernel<Mode, T, B, D><<<grid, B>>>(values, len, out, reps);
  });
  const float base = median_ms(c.opt, [&] {
    loop_kernel<Mode, T, B, D><<<grid, B>>>(values, len, out, 0);
  });
  const double ops = (double)grid * reps / c.sms;  // block decodes per SM
  print_head("loop", Mode::name, dtype_name<T>(), B, D, 0);
  printf("ms=%9.4f base_ms=%9.4f ns/op=%9.3f temp=%6zu %s\n", ms, base,
         reps > 0 ? (ms - base) * 1e6 / ops : 0.0,
         sizeof(typename Decode<T, B, R, D>::TempStorage), ok ? "OK" : "FAIL");
  fflush(stdout);
}

template <typename T, class Mode, int B, int D>
static void add(std::vector<Entry>& v) {
  static_assert(D <= MIN_LENGTH * Mode::runs, "every window inside its stream (see the header)");
  v.push_back({"tile", Mode::name, dtype_name<T>(), B, D, 0, run_tile<Mode, T, B, D>});
  v.push_back({"loop", Mode::name, dtype_name<T>(), B, D, 0, run_loop<Mode, T, B, D>});
}

// The compiled configurations: value type, runs a thread (the mode), block, decoded items a
// thread.
static void add_all(std::vector<Entry>& v) {
  add<int32_t, block_rld_runs2, 128, 4>(v);
  add<int32_t, block_rld_runs4, 128, 8>(v);
  add<int32_t, block_rld_runs1, 256, 4>(v);
  add<int32_t, block_rld_runs2, 256, 2>(v);
  add<int32_t, block_rld_runs2, 512, 4>(v);
  add<int32_t, block_rld_runs1, 1024, 2>(v);
  add<double, block_rld_runs4, 128, 8>(v);
  add<double, block_rld_runs2, 512, 4>(v);
}

int main(int argc, char** argv) {
  std::vector<Entry> entries;
  add_all(entries);
  return reference_main(argc, argv, "cub_run_length_decode", entries);
}
