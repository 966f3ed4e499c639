//===- Passes.td - coop transformation passes --------------*- tablegen -*-===//

#ifndef COOP_DIALECT_COOP_TRANSFORMS_PASSES_TD
#define COOP_DIALECT_COOP_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def CoopPlanScratch : Pass<"coop-plan-scratch", "ModuleOp"> {
  let summary = "Size, align and place the shared scratch of every coop op";
  let description = [{
    For each function, computes the shared scratch each op needs, as its
    `CollectiveOpInterface` states it (at most CUB's TempStorage: for a
    transpose-family load or store or an exchange, `T[items + padding]`
    with one padding slot per 32 items when items_per_thread > 4 and a power
    of two, or the bank model's layout; one warp's worth when time-sliced;
    `width * items + 1` per logical warp for warp transposes and exchanges,
    times the number of groups in the block; one item a thread for a
    shuffle; one item per warp or CUB's raking grid for a block reduction or
    scan; none for warp reductions and scans) and lays out one workgroup
    buffer per function:

    * ops without `temp_storage` share one compiler-owned slice (the
      barrier pass then places exactly the reuse barriers this needs);
    * ops on one `sharing = shared` descriptor share that descriptor's
      slice; ops on a `sharing = exclusive` descriptor each get their own;
    * every slice is aligned to 16 bytes and to the descriptor's alignment.

    Each scratch-using op gets `coop.scratch_offset` (bytes into the
    buffer); the function gets `coop.scratch_size` and
    `coop.scratch_alignment`, and `coop.dynamic_shared_memory` when the
    buffer exceeds 48 KiB (static shared memory's limit), in which case it
    must be launched with that much dynamic shared memory.

    Fails with a diagnostic when the block size is unknown, or when an
    explicit `size_in_bytes` is smaller than its uses need (saying how many
    bytes they need).

    ```mlir
    // Before
    coop.load %b, %src into %items algorithm = transpose : ...
    // After
    coop.load %b, %src into %items algorithm = transpose
        {coop.scratch_offset = 0 : i64} : ...
    ```
  }];
  let dependentDialects = [];
  let statistics = [
    Statistic<"numPlannedOps", "planned-ops", "Ops given a scratch slice">
  ];
}

def CoopInsertBarriers : Pass<"coop-insert-barriers", "ModuleOp"> {
  let summary = "Insert the barriers that scratch reuse needs, and no more";
  let description = [{
    Runs after `--coop-plan-scratch`. A forward may-analysis over each
    function's control flow (blocks, `scf.if` and loops, including the back
    edge of a loop) tracks which scratch ranges were used since the last
    block barrier. Before a scratch-using op whose range overlaps a pending
    range it inserts a `coop.barrier`: a warp barrier when both ops are warp
    operations of the same logical-warp width (each group only touches its
    own slice), a block barrier otherwise. Direct, striped and vectorized
    ops use no scratch and never cause a barrier; ops on disjoint slices
    never synchronize.

    Ops on explicit temp storage follow its `auto_sync`: with it, a block
    barrier follows each use; without it, none is inserted and the program
    synchronizes before reuse. Existing block barriers (`coop.barrier` on a
    block, `gpu.barrier`) end pending ranges.

    ```mlir
    coop.load %b, %src into %items algorithm = transpose {coop.scratch_offset = 0 : i64} : ...
    coop.barrier %b : !coop.group<block>
    coop.store %b, %items into %dst algorithm = transpose {coop.scratch_offset = 0 : i64} : ...
    ```
  }];
  let statistics = [
    Statistic<"numBlockBarriers", "block-barriers", "Block barriers inserted">,
    Statistic<"numWarpBarriers", "warp-barriers", "Warp barriers inserted">
  ];
}

#endif // COOP_DIALECT_COOP_TRANSFORMS_PASSES_TD
