"""A CuTe DSL kernel with cuda.coop calls: each block loads a tile of 512
int32 (4 items per thread, transposed through shared memory), takes its sum
and exclusive prefix sum, and stores the prefix sums.

    pip install "cuda-coop[cute]"
    CUTE_DSL_ARCH=sm_90a python examples/cute/block_scan.py   # compile only
    python examples/cute/block_scan.py --run                   # on a GPU (needs torch)
"""

import os
import sys

import cutlass
import cutlass.cute as cute

from cuda import coop

THREADS, ITEMS = 128, 4
TILE = THREADS * ITEMS


@cute.kernel
def block_scan(g_in: cute.Tensor, g_out: cute.Tensor, g_sums: cute.Tensor):
    bidx, _, _ = cute.arch.block_idx()
    tidx, _, _ = cute.arch.thread_idx()
    block = coop.this_block()
    items = coop.ThreadData(ITEMS, cutlass.Int32)
    coop.load(block, cute.local_tile(g_in, (TILE,), (bidx,)), items, algorithm="transpose")
    total = coop.sum(block, items)
    prefix = coop.exclusive_sum(block, items)
    coop.store(block, cute.local_tile(g_out, (TILE,), (bidx,)), prefix,
               algorithm="transpose")
    if tidx == 0:
        g_sums[bidx] = total


@cute.jit
def launch(m_in: cute.Tensor, m_out: cute.Tensor, m_sums: cute.Tensor):
    blocks = cute.size(m_sums)
    block_scan(m_in, m_out, m_sums).launch(grid=(blocks, 1, 1), block=(THREADS, 1, 1))


def main():
    coop.register("cute")
    blocks = 8
    if "--run" not in sys.argv:
        from cutlass.cute.runtime import make_fake_compact_tensor

        arch = os.environ.setdefault("CUTE_DSL_ARCH", "sm_90a")
        cute.compile(launch, make_fake_compact_tensor(cutlass.Int32, (blocks * TILE,)),
                     make_fake_compact_tensor(cutlass.Int32, (blocks * TILE,)),
                     make_fake_compact_tensor(cutlass.Int32, (blocks,)),
                     options=f"--gpu-arch {arch} --keep-ptx --dump-dir=.")
        print(f"compiled for {arch}; the PTX is in this folder")
        return
    import torch
    from cutlass.cute.runtime import from_dlpack

    a = torch.randint(-100, 100, (blocks * TILE,), dtype=torch.int32, device="cuda")
    out, sums = torch.empty_like(a), torch.empty(blocks, dtype=torch.int32, device="cuda")
    launch(from_dlpack(a), from_dlpack(out), from_dlpack(sums))
    tiles = a.view(blocks, TILE).cpu()
    assert torch.equal(sums.cpu(), tiles.sum(dim=1, dtype=torch.int32))
    expected = torch.cumsum(tiles, dim=1, dtype=torch.int32) - tiles
    assert torch.equal(out.view(blocks, TILE).cpu(), expected)
    print("block sums and prefix sums match")


if __name__ == "__main__":
    main()
