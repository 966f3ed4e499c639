// A batched warp reduction in a kernel without a known block size: the
// lowering read the lanes' ranks from the missing block shape and aborted.
gpu.module @batched {
  gpu.func @batched(%x: memref<4xi32>, %o: memref<1xi32>) kernel {
    %w = coop.this_warp
    %l = coop.group_by %w : !coop.group<warp> -> !coop.group<threads_within_warp, 4>
    coop.reduce_batched %l, %x into %o op = sum : !coop.group<threads_within_warp, 4>, memref<4xi32>, memref<1xi32>
    gpu.return
  }
}
