// The host side the select and reduce_batched references share: options, the
// 1 GiB input pattern per dtype, event timing, sampling, the row head, and the
// command line (filters, `list`, the cudaMemcpy anchor). Each reference adds
// its kernels as Entry rows and calls reference_main.
#pragma once

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

template <typename T> inline const char* dtype_name() { return sizeof(T) == 4 ? "int32" : "f64"; }

template <typename T> inline const T* input(Context& c) {
  const int k = sizeof(T) == 4 ? 0 : 1;
  if (!c.din[k]) {
    const size_t n = c.bytes / sizeof(T);
    std::vector<T> h(n);
    for (size_t j = 0; j < n; ++j) h[j] = T((uint32_t)(j * 2654435761u) >> 12);
    CHECK(cudaMalloc(&c.din[k], c.bytes));
    CHECK(cudaMemcpy(c.din[k], h.data(), c.bytes, cudaMemcpyHostToDevice));
    if constexpr (sizeof(T) == 4) c.h32.swap(h); else c.h64.swap(h);
  }
  return (const T*)c.din[k];
}

template <typename T> inline const std::vector<T>& host_input(Context& c) {
  if constexpr (sizeof(T) == 4) return c.h32; else return c.h64;
}

template <class L>
inline float median_ms(const Options& o, L launch) {
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


// Tiles 0, 97, 194, ... and the last one of `tiles`.
inline std::vector<long> sampled(long tiles) {
  std::vector<long> s;
  for (long k = 0; k < tiles; k += 97) s.push_back(k);
  if (s.back() != tiles - 1) s.push_back(tiles - 1);
  return s;
}


inline void print_head(const char* kernel, const char* mode, const char* dtype, int B, int I, int W) {
  printf("%-4s %-22s %-5s block=%4d ipt=%2d width=%2d ", kernel, mode, dtype, B, I, W);
}


struct Entry {
  const char* kernel;
  const char* mode;
  const char* dtype;
  int block, ipt, width;
  std::function<void(Context&)> run;
};

inline bool match(const std::string& filter, const std::string& value) {
  return filter == "all" || filter == value || (filter == "float64" && value == "f64");
}


// The command line every reference shares: options, filters (or `list`), then
// the anchor and the chosen entries. `name` is the binary's name in messages.
inline int reference_main(int argc, char** argv, const char* name,
                          const std::vector<Entry>& entries) {
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
      fprintf(stderr, "unknown option %s (see the comment at the top of %s.cu)\n", s, name);
      return 2;
    } else pos.push_back(s);
  }
  if (opt.runs < 1 || opt.warmup < 0 || opt.reps < 0 || opt.grid < 1) {
    fprintf(stderr, "bad option value\n");
    return 2;
  }

  const bool list = !pos.empty() && pos[0] == "list";
  if (list) pos.erase(pos.begin());
  if (pos.empty()) opt.anchor = opt.anchor || !list;
  if (pos.size() > 6) {
    fprintf(stderr, "usage: %s [list] [KERNEL [MODE [DTYPE [BLOCK [IPT [WIDTH]]]]]]\n", name);
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
    fprintf(stderr, "no configuration matches (run `%s list`)\n", name);
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
  printf("# %s: SMs=%d runs=%d warmup=%d loop reps=%d grid=%d\n", name, c.sms, opt.runs,
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
