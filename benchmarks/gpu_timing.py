"""The timing protocol the Numba-side benchmarks share with their CUB
references: the median of per-launch event pairs, enqueued behind a sleeping
kernel so Numba's launch cost is not timed, and a cudaMemcpy anchor."""

from __future__ import annotations

import numpy as np


def sleeper():
    from numba_cuda_mlir import cuda

    @cuda.jit
    def sleep(microseconds):
        for _ in range(microseconds):
            cuda.nanosleep(1000)
    return sleep


def calibrate(cuda, options, sleep, sleep_us: int, total_bytes: int):
    """(median_ms(launch), the sleep's measured ms, cudaMemcpy D2D GB/s over
    `total_bytes`); `options` gives runs and warmup."""

    def median_ms(launch) -> float:
        """The reference's protocol, enqueued behind a sleeping kernel."""
        events = [(cuda.event(), cuda.event()) for _ in range(options.runs)]
        cuda.synchronize()
        sleep[1, 1](sleep_us)
        for _ in range(options.warmup):
            launch()
        for start, stop in events:
            start.record()
            launch()
            stop.record()
        events[-1][1].synchronize()
        times = sorted(cuda.event_elapsed_time(start, stop) for start, stop in events)
        return times[options.runs // 2]

    start, stop = cuda.event(), cuda.event()
    sleep[1, 1](10)
    start.record()
    sleep[1, 1](sleep_us)
    stop.record()
    stop.synchronize()
    slept = cuda.event_elapsed_time(start, stop)

    a = cuda.device_array(total_bytes // 4, np.int32)
    b = cuda.device_array(total_bytes // 4, np.int32)
    memcpy = 2.0 * total_bytes / (median_ms(lambda: b.copy_to_device(a)) * 1e6)
    del a, b
    return median_ms, slept, memcpy
