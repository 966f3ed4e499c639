"""run_length_decode_into: expand a run-length encoded array. Each block
decodes its runs (the last block's ragged: zero-length runs pad it) into
the output from where its part of the stream starts, an exclusive sum of
the blocks' lengths the encoder stored beside the runs."""

import numpy as np
from numba_cuda_mlir import cuda

import cuda.coop.numba_mlir as numba_coop  # noqa: F401 -- activate the backend
from cuda import coop


@cuda.jit
def expand(values, lengths, starts, decoded, runs_per_thread):
    block = coop.this_block()
    tile = cuda.blockDim.x * runs_per_thread
    offset = cuda.blockIdx.x * tile
    valid = min(values.size - offset, tile)
    run_values = coop.ThreadData(runs_per_thread, dtype=values.dtype)
    run_lengths = coop.ThreadData(runs_per_thread, dtype=lengths.dtype)
    coop.load(block, values, run_values, offset=offset, valid_items=valid, oob_default=0)
    coop.load(block, lengths, run_lengths, offset=offset, valid_items=valid, oob_default=0)
    coop.run_length_decode_into(block, run_values, run_lengths, decoded,
                                decoded_items_per_thread=4,
                                destination_offset=starts[cuda.blockIdx.x])


def main():
    runs_per_thread, threads = 2, 128
    rng = np.random.default_rng(1)
    values = rng.normal(size=50_001).astype(np.float32)
    lengths = rng.integers(0, 9, values.size).astype(np.int32)
    tile = threads * runs_per_thread
    blocks = -(-values.size // tile)
    # The encoder's block starts: where each block's runs begin in the stream.
    per_block = np.add.reduceat(lengths, np.arange(0, values.size, tile))
    starts = np.concatenate(([0], np.cumsum(per_block)[:-1])).astype(np.int64)
    decoded = cuda.to_device(np.zeros(int(lengths.sum()), np.float32))
    expand[blocks, threads](cuda.to_device(values), cuda.to_device(lengths),
                            cuda.to_device(starts), decoded, runs_per_thread)
    expected = np.repeat(values, lengths)
    print("correct:", bool(np.array_equal(decoded.copy_to_host(), expected)))


if __name__ == "__main__":
    main()
