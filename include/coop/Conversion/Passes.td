//===- Passes.td - coop conversion passes ------------------*- tablegen -*-===//

#ifndef COOP_CONVERSION_PASSES_TD
#define COOP_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertCoopToGPU : Pass<"convert-coop-to-gpu", "ModuleOp"> {
  let summary = "Lower coop ops to the gpu, nvvm, memref, vector, arith and scf dialects";
  let description = [{
    Runs after `--coop-plan-scratch` and `--coop-insert-barriers`. Every
    coop op becomes straight-line code over its payloads (each item a
    constant index, so items stay in registers once the payload is
    promoted), one pattern file per family: loads and stores (below);
    exchanges and shuffles through the planned scratch; reductions and
    scans by shuffles, `redux.sync` on sm_80 and above, and the planned
    scratch in each of CUB's algorithms (docs/reduce-and-scan.md). Loads and
    stores:

    * `direct`: thread `r` owns items `r * ipt + i`; `striped`: `r + i * size`;
    * `vectorize`, and `direct` from 32 bytes a thread, use
      `vector.load`/`vector.store` of up to 16 bytes when the tile is
      unguarded, the memory has unit stride and the tile start is aligned to
      the vector (checked at run time); item by item otherwise. CUB's
      `direct` always goes item by item, which at 8 or 16 items a thread is
      3-4x slower. From 32 bytes a thread (a power of two of 16-byte
      vectors, at most one a lane, whole warps, 32- or 64-bit items) each
      warp or logical warp reads its segment coalesced instead, one vector
      a lane a round, and exchanges it into blocked order with
      `nvvm.shfl.sync idx` steps between two run-time rotations (the
      register transpose: no scratch, no barrier); stores the reverse;
    * `transpose`: striped accesses, exchanged through scratch into blocked
      order (store: the reverse), one barrier of the group between scatter
      and gather (a block barrier, or a warp barrier over the logical warp's
      lanes);
    * `warp_transpose`: warp-striped accesses and a per-warp exchange with a
      warp barrier; `warp_transpose_timesliced`: the same through one warp's
      worth of scratch, one warp at a time, separated by block barriers.

    Guarded tiles (`valid_items`) test each item's position in the tile;
    `oob_default` fills the others. Warp tiles start at
    `offset + (linear_rank / width) * width * ipt`. Ranks linearize the block
    x-fastest using the launch's known block size. `coop.barrier` becomes
    `gpu.barrier`, `nvvm.bar.warp.sync` (with the logical warp's member
    mask), a named barrier (groups of warps) or cluster arrive/wait. The
    function's scratch becomes one workgroup `memref.global` (or dynamic
    shared memory past 48 KiB) viewed at each op's offset. A function whose
    caller owns the scratch instead takes it as an argument marked
    `coop.scratch` (a `memref<?xi8, #gpu.address_space<workgroup>>` at least
    `coop.scratch_size` bytes long and aligned to `coop.scratch_alignment`):
    that is how a host compiler plans a whole kernel's scratch and passes
    each call its slice.

    ```mlir
    // coop.load %b, %src[%off] into %items algorithm = striped
    //     : !coop.group<block>, memref<?xf32>, memref<2xf32>   (block of 64)
    %tid = gpu.thread_id x
    %i0 = arith.addi %off, %tid : index
    %v0 = memref.load %src[%i0] : memref<?xf32>
    memref.store %v0, %items[%c0] : memref<2xf32>
    %p1 = arith.addi %tid, %c64 : index
    ...
    ```
  }];
  let options = [
    Option<"sm", "sm", "unsigned", /*default=*/"0",
           "The target's compute capability as major * 10 + minor (90 for "
           "sm_90): 80 and above reduce 32-bit integers with redux.sync as "
           "CUB does; 0 (unknown) uses only what every target has">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::func::FuncDialect",
    "::mlir::gpu::GPUDialect",
    "::mlir::LLVM::LLVMDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::NVVM::NVVMDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::vector::VectorDialect",
  ];
}

#endif // COOP_CONVERSION_PASSES_TD
