//===- CoopAttrs.td - coop enums and attributes ------------*- tablegen -*-===//

#ifndef COOP_DIALECT_COOP_IR_COOPATTRS_TD
#define COOP_DIALECT_COOP_IR_COOPATTRS_TD

include "coop/Dialect/Coop/IR/CoopDialect.td"
include "mlir/IR/EnumAttr.td"

def Coop_GroupKind : I32EnumAttr<"GroupKind", "which threads a group holds", [
    I32EnumAttrCase<"thread", 0>,
    I32EnumAttrCase<"warp", 1>,
    I32EnumAttrCase<"block", 2>,
    I32EnumAttrCase<"cluster", 3>,
    I32EnumAttrCase<"grid", 4>,
    I32EnumAttrCase<"threads_within_warp", 5>,
    I32EnumAttrCase<"warps_within_block", 6>,
  ]> {
  let cppNamespace = "::mlir::coop";
  let genSpecializedAttr = 0;
}

def Coop_Algorithm : I32EnumAttr<"Algorithm",
    "how a load or store maps a tile to threads and memory accesses", [
    I32EnumAttrCase<"direct", 0>,
    I32EnumAttrCase<"striped", 1>,
    I32EnumAttrCase<"vectorize", 2>,
    I32EnumAttrCase<"transpose", 3>,
    I32EnumAttrCase<"warp_transpose", 4>,
    I32EnumAttrCase<"warp_transpose_timesliced", 5>,
  ]> {
  let cppNamespace = "::mlir::coop";
  let genSpecializedAttr = 0;
}

def Coop_AlgorithmAttr : EnumAttr<Coop_Dialect, Coop_Algorithm, "algorithm"> {
  let summary = "load/store algorithm (CUB's BlockLoadAlgorithm and "
                "WarpLoadAlgorithm)";
  let description = [{
    `direct` and `vectorize` give each thread consecutive items (blocked);
    `striped` gives neighbouring threads neighbouring items at each item index;
    `transpose`, `warp_transpose` and `warp_transpose_timesliced` access memory
    striped and exchange through shared scratch into blocked order. Blocks
    accept all six; physical and logical warps accept `direct`, `striped`,
    `vectorize` and `transpose`.

    ```mlir
    coop.load %block, %src into %items algorithm = warp_transpose
        : !coop.group<block>, memref<?xf32>, memref<4xf32>
    ```
  }];
}

def Coop_Sharing : I32EnumAttr<"Sharing", "scratch allocation policy", [
    I32EnumAttrCase<"shared", 0>,
    I32EnumAttrCase<"exclusive", 1>,
  ]> {
  let cppNamespace = "::mlir::coop";
  let genSpecializedAttr = 0;
}

def Coop_SharingAttr : EnumAttr<Coop_Dialect, Coop_Sharing, "sharing"> {
  let summary = "whether call sites on one temp storage share a slice";
  let description = [{
    `shared`: calls on the same descriptor may reuse one scratch slice.
    `exclusive`: each call site gets its own slice, trading shared memory for
    the barriers that cross-call reuse would need.

    ```mlir
    %ts = coop.temp_storage sharing = exclusive : !coop.temp_storage
    ```
  }];
}

def Coop_ExchangeMode : I32EnumAttr<"ExchangeMode",
    "which layouts an exchange converts between", [
    I32EnumAttrCase<"striped_to_blocked", 0>,
    I32EnumAttrCase<"blocked_to_striped", 1>,
    I32EnumAttrCase<"warp_striped_to_blocked", 2>,
    I32EnumAttrCase<"blocked_to_warp_striped", 3>,
    I32EnumAttrCase<"scatter_to_blocked", 4>,
    I32EnumAttrCase<"scatter_to_striped", 5>,
    I32EnumAttrCase<"scatter_to_striped_guarded", 6>,
    I32EnumAttrCase<"scatter_to_striped_flagged", 7>,
  ]> {
  let cppNamespace = "::mlir::coop";
  let genSpecializedAttr = 0;
}

def Coop_ExchangeModeAttr : EnumAttr<Coop_Dialect, Coop_ExchangeMode,
                                     "exchange_mode"> {
  let summary = "exchange mode (CUB's BlockExchange and WarpExchange methods)";
  let description = [{
    `striped_to_blocked` / `blocked_to_striped` transpose between striped
    (`rank + i * group_size`) and blocked (`rank * ipt + i`) order;
    the `warp_striped` modes between blocked and warp-striped order (warp
    `w`, lane `l` owns `w * 32 * ipt + l + 32 * i`); the `scatter` modes
    place each item at its `ranks` position (guarded: only ranks >= 0,
    flagged: only items whose `valid_flags` is set) and read the tile back
    blocked or striped. Warps accept `striped_to_blocked`,
    `blocked_to_striped` and `scatter_to_striped`.

    ```mlir
    coop.exchange %block, %in into %out mode = scatter_to_blocked
        ranks = %ranks : memref<4xi32>
        : !coop.group<block>, memref<4xf32>, memref<4xf32>
    ```
  }];
}

def Coop_ShuffleMode : I32EnumAttr<"ShuffleMode",
    "how a block shuffle moves values between threads", [
    I32EnumAttrCase<"up", 0>,
    I32EnumAttrCase<"down", 1>,
    I32EnumAttrCase<"offset", 2>,
    I32EnumAttrCase<"rotate", 3>,
  ]> {
  let cppNamespace = "::mlir::coop";
  let genSpecializedAttr = 0;
}

def Coop_ShuffleModeAttr : EnumAttr<Coop_Dialect, Coop_ShuffleMode,
                                    "shuffle_mode"> {
  let summary = "shuffle mode (CUB's BlockShuffle methods)";
  let description = [{
    `up` / `down` shift the block's blocked tile of payloads by one item
    (toward higher / lower tile positions); `offset` / `rotate` give each
    thread the scalar of the thread `distance` ranks away (rotate: modulo
    the block size).

    ```mlir
    %r = coop.shuffle %block, %x mode = rotate distance = %d
        : !coop.group<block>, f32 -> f32
    ```
  }];
}


def Coop_BinaryOp : I32EnumAttr<"BinaryOp",
    "a named associative operator of reductions and scans", [
    I32EnumAttrCase<"sum", 0>,
    I32EnumAttrCase<"min", 1>,
    I32EnumAttrCase<"max", 2>,
    I32EnumAttrCase<"multiplies", 3>,
    I32EnumAttrCase<"bit_and", 4>,
    I32EnumAttrCase<"bit_or", 5>,
    I32EnumAttrCase<"bit_xor", 6>,
  ]> {
  let cppNamespace = "::mlir::coop";
  let genSpecializedAttr = 0;
}

def Coop_BinaryOpAttr : EnumAttr<Coop_Dialect, Coop_BinaryOp, "binary_op"> {
  let summary = "named operator of a reduction or scan (CUB's functors)";
  let description = [{
    `sum`, `multiplies`, `min`, `max` (as `cuda::minimum` / `maximum`:
    `a < b ? a : b`; integers compare as unsigned when the op is marked
    `unsigned`), `bit_and`, `bit_or`, `bit_xor` (integers only). All are
    commutative.
  }];
}

def Coop_ReduceAlgorithm : I32EnumAttr<"ReduceAlgorithm",
    "how a block reduces (CUB's BlockReduceAlgorithm)", [
    I32EnumAttrCase<"warp_reductions", 0>,
    I32EnumAttrCase<"raking", 1>,
    I32EnumAttrCase<"raking_commutative_only", 2>,
  ]> {
  let cppNamespace = "::mlir::coop";
  let genSpecializedAttr = 0;
}

def Coop_ReduceAlgorithmAttr : EnumAttr<Coop_Dialect, Coop_ReduceAlgorithm,
                                        "reduce_algorithm"> {
  let summary = "block reduction algorithm (CUB's BlockReduceAlgorithm)";
  let description = [{
    `warp_reductions`: every warp reduces by shuffles, then the warps'
    aggregates are combined through shared memory. `raking`: partials go to
    a shared raking grid that one warp reduces serially, then by shuffles
    (any associative operator). `raking_commutative_only`: threads past the
    first warp share their partials with it; needs a commutative operator,
    and falls back to `raking` for partial tiles and blocks that are not a
    whole number of warps above 32 threads (as CUB does).
  }];
}

def Coop_ScanAlgorithm : I32EnumAttr<"ScanAlgorithm",
    "how a block scans (CUB's BlockScanAlgorithm)", [
    I32EnumAttrCase<"raking", 0>,
    I32EnumAttrCase<"raking_memoize", 1>,
    I32EnumAttrCase<"warp_scans", 2>,
  ]> {
  let cppNamespace = "::mlir::coop";
  let genSpecializedAttr = 0;
}

def Coop_ScanAlgorithmAttr : EnumAttr<Coop_Dialect, Coop_ScanAlgorithm,
                                      "scan_algorithm"> {
  let summary = "block scan algorithm (CUB's BlockScanAlgorithm)";
  let description = [{
    `raking`: partials go to a shared raking grid; one warp scans it
    (upsweep, warp scan, downsweep) and every thread reads its prefix.
    `raking_memoize`: CUB's name for the same with each raking segment kept
    in registers between the sweeps; both names lower alike here, keeping a
    segment where that measured faster (docs/reduce-and-scan.md).
    `warp_scans`: every warp scans by shuffles, then each thread combines the
    aggregates of the warps before its own.
  }];
}

def Coop_ScanMode : I32EnumAttr<"ScanMode", "inclusive or exclusive scan", [
    I32EnumAttrCase<"inclusive", 0>,
    I32EnumAttrCase<"exclusive", 1>,
  ]> {
  let cppNamespace = "::mlir::coop";
  let genSpecializedAttr = 0;
}

def Coop_ScanModeAttr : EnumAttr<Coop_Dialect, Coop_ScanMode, "scan_mode"> {
  let summary = "whether item i of a scan includes item i";
}

def Coop_BatchLayout : I32EnumAttr<"BatchLayout",
    "which lane holds which batch's result", [
    I32EnumAttrCase<"striped", 0>,
    I32EnumAttrCase<"blocked", 1>,
  ]> {
  let cppNamespace = "::mlir::coop";
  let genSpecializedAttr = 0;
}

def Coop_BatchLayoutAttr : EnumAttr<Coop_Dialect, Coop_BatchLayout,
                                    "batch_layout"> {
  let summary = "the layout of a batched reduction's results";
  let description = [{
    `striped`: result slot i of lane r is batch `r + i*W`; `blocked`: batch
    `r*ceil(B/W) + i` (W lanes, B batches).
  }];
}

def Coop_HistogramAlgorithm : I32EnumAttr<"HistogramAlgorithm",
    "how a block histogram counts its samples", [
    I32EnumAttrCase<"atomic", 0>,
    I32EnumAttrCase<"sort", 1>,
  ]> {
  let cppNamespace = "::mlir::coop";
  let genSpecializedAttr = 0;
}

def Coop_HistogramAlgorithmAttr : EnumAttr<Coop_Dialect,
    Coop_HistogramAlgorithm, "histogram_algorithm"> {
  let summary = "how a block histogram counts its samples";
  let description = [{
    `atomic`: CUB's `BLOCK_HISTO_ATOMIC`, one shared-memory atomic add a
    sample. `sort`: CUB's `BLOCK_HISTO_SORT`, a block radix sort of the
    samples' bins, then each run of equal bins counted from its first and
    last position.
  }];
}

def Coop_RadixRankAlgorithm : I32EnumAttr<"RadixRankAlgorithm",
    "how a block ranks its keys by a digit", [
    I32EnumAttrCase<"basic", 0>,
    I32EnumAttrCase<"memoize", 1>,
    I32EnumAttrCase<"match", 2>,
  ]> {
  let cppNamespace = "::mlir::coop";
  let genSpecializedAttr = 0;
}

def Coop_RadixRankAlgorithmAttr : EnumAttr<Coop_Dialect,
    Coop_RadixRankAlgorithm, "radix_rank_algorithm"> {
  let summary = "how a block ranks its keys by a digit";
  let description = [{
    `basic` and `memoize`: CUB's `RADIX_RANK_BASIC` and
    `RADIX_RANK_MEMOIZE`, each thread counting its keys' digits in its own
    column of 16-bit counters (two packed in a word), one raking block scan
    of the packed words, and each key's rank read back from its counter.
    Both keep the raking segment in registers between the scan's upsweep and
    downsweep (CUB's memoization), so they lower alike. `match`: CUB's
    `RADIX_RANK_MATCH` (`BlockRadixRankMatch`), each warp ranking a strip of
    its keys at a time by ballots over the digit's bits, in 32-bit counters
    per digit and warp (far less shared memory for wide digits); the keys'
    digits go to warp-striped order and the ranks back through scratch, so
    the rank is stable in blocked order. Blocks of whole warps only.
  }];
}

#endif // COOP_DIALECT_COOP_IR_COOPATTRS_TD
