//===- CoopOps.td - coop operations ------------------------*- tablegen -*-===//

#ifndef COOP_DIALECT_COOP_IR_COOPOPS_TD
#define COOP_DIALECT_COOP_IR_COOPOPS_TD

include "coop/Dialect/Coop/IR/CoopDialect.td"
include "coop/Dialect/Coop/IR/CoopAttrs.td"
include "coop/Dialect/Coop/IR/CoopInterfaces.td"
include "coop/Dialect/Coop/IR/CoopTypes.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/IR/CommonTypeConstraints.td"

class Coop_Op<string mnemonic, list<Trait> traits = []>
    : Op<Coop_Dialect, mnemonic, traits>;

//===----------------------------------------------------------------------===//
// Type constraints
//===----------------------------------------------------------------------===//

class Coop_GroupOf<string kind> : Type<
    CPred<"::llvm::isa<::mlir::coop::GroupType>($_self) && "
          "::llvm::cast<::mlir::coop::GroupType>($_self).getKind() == "
          "::mlir::coop::GroupKind::" # kind>,
    "!coop.group<" # kind # ">", "::mlir::coop::GroupType">,
  BuildableType<"::mlir::coop::GroupType::get($_builder.getContext(), "
                "::mlir::coop::GroupKind::" # kind # ")">;

def Coop_AnyGroup : Type<CPred<"::llvm::isa<::mlir::coop::GroupType>($_self)">,
    "a !coop.group", "::mlir::coop::GroupType">;

def Coop_TempStorage : Type<
    CPred<"::llvm::isa<::mlir::coop::TempStorageType>($_self)">,
    "!coop.temp_storage", "::mlir::coop::TempStorageType">,
  BuildableType<"::mlir::coop::TempStorageType::get($_builder.getContext())">;

// Whole-byte numeric types: scratch and vector accesses address bytes.
def Coop_Element : AnyTypeOf<[I8, I16, I32, I64, F16, BF16, F32, F64]>;

def Coop_Memory : MemRefRankOf<[I8, I16, I32, I64, F16, BF16, F32, F64], [1]>;

def Coop_StoreValue : AnyTypeOf<[Coop_Memory, Coop_Element],
    "a 1-D payload memref or a scalar">;

//===----------------------------------------------------------------------===//
// Groups
//===----------------------------------------------------------------------===//

class Coop_ThisOp<string kind, string who> : Coop_Op<"this_" # kind, [Pure]> {
  let summary = "the calling thread's " # who;
  let description = [{
    Returns a symbolic descriptor of the calling thread's }] # who # [{.
    Constructing it does not synchronize threads.

    ```mlir
    %g = coop.this_}] # kind # [{

    ```
  }];
  let results = (outs Coop_GroupOf<kind>:$result);
  let assemblyFormat = "attr-dict";
  let builders = [OpBuilder<(ins), [{
    $_state.addTypes(::mlir::coop::GroupType::get($_builder.getContext(),
                                                  ::mlir::coop::GroupKind::}] # kind # [{));
  }]>];
}

def Coop_ThisThreadOp : Coop_ThisOp<"thread", "one-thread group">;
def Coop_ThisWarpOp : Coop_ThisOp<"warp",
    "physical warp (32 consecutive threads in linear thread order)">;
def Coop_ThisBlockOp : Coop_ThisOp<"block",
    "block; its size is the launch's block size, ranks linearized x-fastest">;
def Coop_ThisClusterOp : Coop_ThisOp<"cluster", "thread-block cluster">;
def Coop_ThisGridOp : Coop_ThisOp<"grid", "grid">;

def Coop_GroupByOp : Coop_Op<"group_by", [Pure]> {
  let summary = "partition a warp by threads or a block by warps";
  let description = [{
    Returns the subgroup that contains the calling thread. The unit count and
    the exhaustive flag are parameters of the result type: a warp parent
    gives `threads_within_warp` groups of `count` lanes, a block parent gives
    `warps_within_block` groups of `count` physical warps. An exhaustive
    partition must divide the parent's unit count; nested partitions are
    unsupported.

    ```mlir
    %w = coop.this_warp
    %lanes = coop.group_by %w : !coop.group<warp> -> !coop.group<threads_within_warp, 8>
    %b = coop.this_block
    %pairs = coop.group_by %b : !coop.group<block> -> !coop.group<warps_within_block, 2>
    ```
  }];
  let arguments = (ins Coop_AnyGroup:$parent);
  let results = (outs Coop_AnyGroup:$result);
  let assemblyFormat = [{
    $parent attr-dict `:` qualified(type($parent)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def Coop_BarrierOp : Coop_Op<"barrier",
    [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "synchronize the threads of a group";
  let description = [{
    Every thread of the group waits until all of them arrive, and their
    memory accesses before the barrier are visible to the group after it.
    Blocks synchronize with a block barrier, warps and logical warps with a
    warp barrier over their lanes, groups of warps with a named barrier.
    Grid-wide synchronization needs a cooperative launch and is not offered.

    ```mlir
    %b = coop.this_block
    coop.barrier %b : !coop.group<block>
    ```
  }];
  let arguments = (ins Coop_AnyGroup:$group);
  let assemblyFormat = "$group attr-dict `:` qualified(type($group))";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Temp storage
//===----------------------------------------------------------------------===//

def Coop_TempStorageOp : Coop_Op<"temp_storage"> {
  let summary = "describe shared scratch for block algorithms";
  let description = [{
    A descriptor of shared scratch for the block operations that use some:
    transpose-family loads and stores, exchanges, shuffles, and block
    reductions and scans. `size_in_bytes` is a capacity that must cover
    every use (the scratch planner checks it); omitted, the planner sizes
    it.
    `alignment` is a minimum alignment in bytes (a power of two). With
    `auto_sync`, a barrier follows each scratch-using call; without it the
    program synchronizes before reusing the scratch. With
    `sharing = exclusive`, each call site on this descriptor gets its own
    slice.

    ```mlir
    %a = coop.temp_storage
    %b = coop.temp_storage size_in_bytes = 4096 alignment = 16 auto_sync
    %c = coop.temp_storage sharing = exclusive
    ```
  }];
  let arguments = (ins
    OptionalAttr<I64Attr>:$size_in_bytes,
    OptionalAttr<I64Attr>:$alignment,
    UnitAttr:$auto_sync,
    DefaultValuedAttr<Coop_SharingAttr, "::mlir::coop::Sharing::shared">:$sharing);
  let results = (outs Coop_TempStorage:$result);
  let assemblyFormat = [{
    (`size_in_bytes` `=` $size_in_bytes^)?
    (`alignment` `=` $alignment^)?
    (`auto_sync` $auto_sync^)?
    (`sharing` `=` `` $sharing^)?
    attr-dict
  }];
  let hasVerifier = 1;
}

def Coop_ReserveOp : Coop_Op<"reserve",
    [DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "an array of the program's own, carved out of a temp storage";
  let description = [{
    `count` items of the result's element type in `temp_storage`'s region
    of the kernel's scratch, at the given `alignment` (bytes, a power of
    two) or the item's. The scratch planner places each reserved array
    before the region's slices for the operations that use the descriptor,
    so no operation touches it: its contents survive every coop operation,
    and the program synchronizes its own accesses as for any shared array.
    The region's `size_in_bytes`, when given, covers the reserved arrays
    too; past 48 KiB the kernel's scratch is dynamic shared memory.

    ```mlir
    %ts = coop.temp_storage
    %hist = coop.reserve %ts count = 256 alignment = 16
        : memref<256xi32, #gpu.address_space<workgroup>>
    ```
  }];
  let arguments = (ins
    Coop_TempStorage:$temp_storage,
    ConfinedAttr<I64Attr, [IntMinValue<1>]>:$count,
    OptionalAttr<I64Attr>:$alignment);
  let results = (outs AnyStaticShapeMemRef:$result);
  let assemblyFormat = [{
    $temp_storage `count` `=` $count (`alignment` `=` $alignment^)?
    attr-dict `:` type($result)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// Bytes and alignment of the reserved array.
    int64_t getBytes();
    int64_t getByteAlignment();
  }];
}

//===----------------------------------------------------------------------===//
// Memory operations
//===----------------------------------------------------------------------===//

def Coop_LoadOp : Coop_Op<"load", [AttrSizedOperandSegments,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
    DeclareOpInterfaceMethods<Coop_CollectiveOpInterface,
                              ["getScratchLayout", "getScratchAccess"]>]> {
  let summary = "load a group tile from memory into per-thread payloads";
  let description = [{
    Every thread of `group` fills its payload (a static 1-D memref of
    `items_per_thread` items) from `source`, a 1-D memref with the payload's
    element type. The group's tile holds `group_size * items_per_thread`
    items starting at `offset` (default 0); warp tiles start at
    `offset + (linear_rank / width) * tile`. With `valid_items`, only that
    prefix of the tile is read and the remaining slots hold `oob_default`
    when given, unspecified values otherwise. Transpose-family algorithms use
    shared scratch: `temp_storage` names it (for a warp group, every warp's
    region of it), the compiler allocates it when omitted.

    `read_only` promises that `source` is global memory that nothing writes
    while the kernel runs (Numba's front end sets it for a read-only array
    argument of the kernel). Its 32- and 64-bit items are then read through
    the non-coherent cache, `ld.global.nc` (CUB's `LOAD_LDG`), vectorized
    or not; other item widths read as usual.

    Rules checked here: the group is a block, a warp or a logical warp of 1,
    2, 4, 8, 16 or 32 lanes; warps accept `direct`, `striped`, `vectorize`
    and `transpose`; element types match; `oob_default` needs `valid_items`;
    a `read_only` source is not in shared (workgroup) or private memory;
    `temp_storage` only on transpose-family algorithms; warp
    operations and warp-transpose algorithms need a block size that is a
    multiple of 32 (when known).

    ```mlir
    coop.load %block, %src[%off] into %items algorithm = transpose
        valid_items = %n oob_default = %zero : i32
        : !coop.group<block>, memref<?xi32>, memref<4xi32>
    ```
  }];
  let arguments = (ins
    Coop_AnyGroup:$group,
    Coop_Memory:$source,
    Coop_Memory:$payload,
    Optional<Index>:$offset,
    Optional<Index>:$valid_items,
    Optional<Coop_Element>:$oob_default,
    Optional<Coop_TempStorage>:$temp_storage,
    DefaultValuedAttr<Coop_AlgorithmAttr, "::mlir::coop::Algorithm::direct">:$algorithm,
    UnitAttr:$read_only);
  let assemblyFormat = [{
    $group `,` $source (`[` $offset^ `]`)? `into` $payload
    (`algorithm` `=` `` $algorithm^)?
    (`valid_items` `=` $valid_items^)?
    (`oob_default` `=` $oob_default^ `:` type($oob_default))?
    (`temp_storage` `=` $temp_storage^)?
    (`read_only` $read_only^)?
    attr-dict `:` qualified(type($group)) `,` type($source) `,` type($payload)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// Items each thread owns: the payload's static size.
    int64_t getItemsPerThread() {
      return ::llvm::cast<::mlir::MemRefType>(getPayload().getType()).getDimSize(0);
    }
    ::mlir::Type getItemType() { return getSource().getType().getElementType(); }
  }];
}

def Coop_StoreOp : Coop_Op<"store", [AttrSizedOperandSegments,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
    DeclareOpInterfaceMethods<Coop_CollectiveOpInterface,
                              ["getScratchLayout", "getScratchAccess"]>]> {
  let summary = "store a group tile from per-thread payloads into memory";
  let description = [{
    Every thread of `group` writes its payload (a static 1-D memref, or a
    scalar for one item per thread) into `destination` at the positions its
    algorithm assigns. The tile addressing, the group and algorithm rules and
    `temp_storage` are those of `coop.load`. With `valid_items`, only that
    prefix of the tile is written. Transpose-family algorithms may rearrange
    the payload in place.

    ```mlir
    coop.store %warp, %items into %dst[%off] algorithm = striped
        : !coop.group<warp>, memref<4xf32>, memref<?xf32>
    coop.store %block, %x into %dst valid_items = %n
        : !coop.group<block>, f32, memref<?xf32>
    ```
  }];
  let arguments = (ins
    Coop_AnyGroup:$group,
    Coop_StoreValue:$value,
    Coop_Memory:$destination,
    Optional<Index>:$offset,
    Optional<Index>:$valid_items,
    Optional<Coop_TempStorage>:$temp_storage,
    DefaultValuedAttr<Coop_AlgorithmAttr, "::mlir::coop::Algorithm::direct">:$algorithm);
  let assemblyFormat = [{
    $group `,` $value `into` $destination (`[` $offset^ `]`)?
    (`algorithm` `=` `` $algorithm^)?
    (`valid_items` `=` $valid_items^)?
    (`temp_storage` `=` $temp_storage^)?
    attr-dict `:` qualified(type($group)) `,` type($value) `,` type($destination)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// Items each thread owns: the payload's static size, 1 for a scalar.
    int64_t getItemsPerThread() {
      if (auto memref = ::llvm::dyn_cast<::mlir::MemRefType>(getValue().getType()))
        return memref.getDimSize(0);
      return 1;
    }
    ::mlir::Type getItemType() {
      return getDestination().getType().getElementType();
    }
  }];
}

//===----------------------------------------------------------------------===//
// Exchanges
//===----------------------------------------------------------------------===//

def Coop_Payload : MemRefRankOf<[I8, I16, I32, I64, F16, BF16, F32, F64], [1]>;
def Coop_Flags : MemRefRankOf<[I1, I8, I16, I32, I64], [1]>;

def Coop_ExchangeOp : Coop_Op<"exchange", [AttrSizedOperandSegments,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
    DeclareOpInterfaceMethods<Coop_CollectiveOpInterface,
                              ["getScratchLayout", "getScratchAccess"]>]> {
  let summary = "rearrange a group's tile between layouts";
  let description = [{
    CUB's `BlockExchange` (block groups) and `WarpExchange` (warps and
    logical warps, shared-memory algorithm). Every thread of `group` passes
    its `input` payload and receives its items of the rearranged tile in
    `output` (a payload of the same size and type; it may be `input`).
    Scatter modes take `ranks`, an `i32` payload of the same size: the tile
    position of each item. `scatter_to_striped_guarded` skips items with a
    negative rank, `scatter_to_striped_flagged` items whose `valid_flags`
    is zero; positions that receive no item hold unspecified values.
    `warp_time_slicing` (blocks, not the guarded and flagged modes) uses one
    warp's worth of scratch and exchanges one warp's slice at a time.

    Rules checked here: the group is a block, a warp or a logical warp of 1,
    2, 4, 8, 16 or 32 lanes; warps accept `striped_to_blocked`,
    `blocked_to_striped` and `scatter_to_striped` and no
    `warp_time_slicing`; payloads match in size and element type; `ranks`
    is given exactly for the scatter modes and `valid_flags` exactly for the
    flagged mode; warp-striped modes and time slicing need whole warps.

    ```mlir
    coop.exchange %block, %items into %blocked mode = striped_to_blocked
        : !coop.group<block>, memref<4xi32>, memref<4xi32>
    coop.exchange %warp, %items into %out mode = scatter_to_striped
        ranks = %ranks : memref<4xi32>
        : !coop.group<threads_within_warp, 8>, memref<4xf64>, memref<4xf64>
    ```
  }];
  let arguments = (ins
    Coop_AnyGroup:$group,
    Coop_Payload:$input,
    Coop_Payload:$output,
    Optional<MemRefRankOf<[I32], [1]>>:$ranks,
    Optional<Coop_Flags>:$valid_flags,
    Optional<Coop_TempStorage>:$temp_storage,
    Coop_ExchangeModeAttr:$mode,
    UnitAttr:$warp_time_slicing);
  let assemblyFormat = [{
    $group `,` $input `into` $output `mode` `=` `` $mode
    (`ranks` `=` $ranks^ `:` type($ranks))?
    (`valid_flags` `=` $valid_flags^ `:` type($valid_flags))?
    (`warp_time_slicing` $warp_time_slicing^)?
    (`temp_storage` `=` $temp_storage^)?
    attr-dict `:` qualified(type($group)) `,` type($input) `,` type($output)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    int64_t getItemsPerThread() {
      return ::llvm::cast<::mlir::MemRefType>(getInput().getType()).getDimSize(0);
    }
    ::mlir::Type getItemType() {
      return ::llvm::cast<::mlir::MemRefType>(getInput().getType()).getElementType();
    }
    /// True for the modes that take ranks.
    bool isScatter() {
      return getMode() >= ::mlir::coop::ExchangeMode::scatter_to_blocked;
    }
  }];
}

def Coop_ShuffleOp : Coop_Op<"shuffle", [AttrSizedOperandSegments,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
    DeclareOpInterfaceMethods<Coop_CollectiveOpInterface,
        ["getScratchLayout", "getScratchAccess", "getBlockPrimitive"]>]> {
  let summary = "move values between neighbouring threads of a block";
  let description = [{
    CUB's `BlockShuffle`. `up` and `down` take payloads: `output` receives
    the block's blocked tile shifted by one item toward higher (`up`) or
    lower (`down`) positions; the one vacated item is `fill` when given,
    otherwise unspecified. With `block_suffix` (`up`) or `block_prefix`
    (`down`) the op also returns the item shifted out of the tile, in every
    thread: the last item of the block's last thread (CUB's `block_suffix`)
    or the first item of its first thread (`block_prefix`). `offset` and
    `rotate` take a scalar and return the scalar of the thread `distance`
    ranks away, each thread with its own runtime `distance` (as CUB's
    `Offset`): for `offset` (any sign), threads whose source is outside the
    block get `fill` when given, otherwise their own value; `rotate` takes
    the thread `(rank + distance) mod block size`.

    ```mlir
    coop.shuffle %block, %items into %prev mode = up fill = %zero : f32
        : !coop.group<block>, memref<4xf32>, memref<4xf32>
    %last = coop.shuffle %block, %items into %prev mode = up block_suffix
        : !coop.group<block>, memref<4xf32>, memref<4xf32> -> f32
    %right = coop.shuffle %block, %x mode = offset distance = %d
        : !coop.group<block>, f32 -> f32
    ```
  }];
  let arguments = (ins
    Coop_AnyGroup:$group,
    AnyTypeOf<[Coop_Payload, Coop_Element]>:$input,
    Optional<Coop_Payload>:$output,
    Optional<Index>:$distance,
    Optional<Coop_Element>:$fill,
    Optional<Coop_TempStorage>:$temp_storage,
    Coop_ShuffleModeAttr:$mode,
    UnitAttr:$block_prefix,
    UnitAttr:$block_suffix);
  let results = (outs Optional<Coop_Element>:$result);
  let assemblyFormat = [{
    $group `,` $input (`into` $output^)? `mode` `=` `` $mode
    (`distance` `=` $distance^)?
    (`fill` `=` $fill^ `:` type($fill))?
    (`block_prefix` $block_prefix^)? (`block_suffix` $block_suffix^)?
    (`temp_storage` `=` $temp_storage^)?
    attr-dict `:` qualified(type($group)) `,` type($input)
    (`,` type($output)^)? (`->` type($result)^)?
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    int64_t getItemsPerThread() {
      if (auto memref = ::llvm::dyn_cast<::mlir::MemRefType>(getInput().getType()))
        return memref.getDimSize(0);
      return 1;
    }
    ::mlir::Type getItemType() {
      ::mlir::Type type = getInput().getType();
      if (auto memref = ::llvm::dyn_cast<::mlir::MemRefType>(type))
        return memref.getElementType();
      return type;
    }
    /// True for `up` and `down`, which shift payloads.
    bool isShift() {
      return getMode() == ::mlir::coop::ShuffleMode::up ||
             getMode() == ::mlir::coop::ShuffleMode::down;
    }
  }];
}


def Coop_ReduceOp : Coop_Op<"reduce", [AttrSizedOperandSegments,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
    DeclareOpInterfaceMethods<Coop_CollectiveOpInterface,
        ["getScratchLayout", "getScratchAccess", "acceptsThreadGroup",
         "needsExactBlock"]>]> {
  let summary = "combine a group's items into one value";
  let description = [{
    CUB's `BlockReduce` (blocks), `WarpReduce` (warps and logical warps, by
    shuffles) and `ThreadReduce` (`thread` groups: the calling thread's own
    items). The operator is a named one (`op`) or a function `(T, T) -> T`
    (`combiner`), associative; `raking_commutative_only` also needs it
    commutative. With `valid_items` only the first `valid_items` items of
    the tile (blocked order) take part; it must be in [1, tile size] and the
    same in every thread. With `broadcast` every thread of the group gets
    the aggregate; without, only the group's rank 0 (other threads get an
    unspecified value).

    Rules checked here: exactly one of `op` and `combiner`; the combiner
    takes two items and returns one; bitwise operators and `unsigned` need
    integer items; `algorithm` only on blocks. A warp's reduction shuffles
    and uses no scratch: its `temp_storage`, when given, is unused.

    ```mlir
    %sum = coop.reduce %block, %items op = sum broadcast
        : !coop.group<block>, memref<4xf32> -> f32
    %m = coop.reduce %warp, %x combiner = @my_max valid_items = %n
        : !coop.group<threads_within_warp, 8>, i32 -> i32
    ```
  }];
  let arguments = (ins
    Coop_AnyGroup:$group,
    AnyTypeOf<[Coop_Payload, Coop_Element]>:$input,
    Optional<Index>:$valid_items,
    Optional<Coop_TempStorage>:$temp_storage,
    OptionalAttr<Coop_BinaryOpAttr>:$kind,
    OptionalAttr<FlatSymbolRefAttr>:$combiner,
    OptionalAttr<Coop_ReduceAlgorithmAttr>:$algorithm,
    UnitAttr:$broadcast,
    UnitAttr:$is_unsigned);
  let results = (outs Coop_Element:$result);
  let assemblyFormat = [{
    $group `,` $input (`op` `=` `` $kind^)? (`combiner` `=` $combiner^)?
    (`valid_items` `=` $valid_items^)?
    (`algorithm` `=` `` $algorithm^)?
    (`broadcast` $broadcast^)? (`unsigned` $is_unsigned^)?
    (`temp_storage` `=` $temp_storage^)?
    attr-dict `:` qualified(type($group)) `,` type($input) `->` type($result)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    int64_t getItemsPerThread() {
      if (auto memref = ::llvm::dyn_cast<::mlir::MemRefType>(getInput().getType()))
        return memref.getDimSize(0);
      return 1;
    }
    ::mlir::Type getItemType() { return getResult().getType(); }
    ::mlir::coop::ReduceAlgorithm getBlockAlgorithm() {
      return getAlgorithm().value_or(::mlir::coop::ReduceAlgorithm::warp_reductions);
    }
  }];
}

def Coop_ScanOp : Coop_Op<"scan", [AttrSizedOperandSegments,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
    DeclareOpInterfaceMethods<Coop_CollectiveOpInterface,
        ["getScratchLayout", "getScratchAccess", "needsExactBlock"]>]> {
  let summary = "prefix scan of a group's tile";
  let description = [{
    CUB's `BlockScan` (blocks) and `WarpScan` (warps and logical warps, by
    shuffles) over the group's tile in blocked order. A payload `input`
    writes the scanned tile to `output` (same type); a scalar `input` (one
    item per thread) returns it. `inclusive`: item i combines items 0..i;
    `exclusive`: items 0..i-1, seeded by `initial_value` (without it, the
    first item of the tile is the named operator's identity, e.g. 0 for
    `sum`, and unspecified for a `combiner`, as in CUB). An inclusive scan
    with `initial_value` combines it before the first item. With
    `aggregate` the op also returns the aggregate of the whole tile's items
    (CUB's block aggregate: without the initial value), in every thread, as
    its last result.

    `valid_items` (warps and logical warps, CUB's `InclusiveScanPartial` /
    `ExclusiveScanPartial`): only the first `valid_items` items of the tile
    (blocked order) take part. Results at those positions are the scan's;
    results past them are unspecified; the aggregate is that of the valid
    items. A count below 1 counts as 1, above the tile as the tile.

    `prefix = @f(%state : type)` (blocks only) scans many tiles in a loop,
    as CUB's block prefix callback: once per op, the block's first thread
    calls `@f(%state, tile_aggregate) -> item`; the returned value is the
    prefix combined before every item of the tile (so an exclusive scan's
    first item is that prefix), and `@f` may update the state it is given
    to carry a running total to the next tile. A stateless callback,
    `prefix = @f`, is `@f(tile_aggregate) -> item`. The aggregate, when
    asked for, is the tile's own.

    Rules checked here: exactly one of `op` and `combiner`; the combiner
    takes two items and returns one; results match the input's item type;
    `algorithm` and `prefix` only on blocks (a warp's scan shuffles: its
    `temp_storage`, when given, is unused); not both
    `prefix` and `initial_value`; `@f`, where the module has it, takes the
    state (when given) and an item and returns an item.

    ```mlir
    coop.scan %block, %items into %out mode = exclusive op = sum
        initial_value = %zero : i32
        : !coop.group<block>, memref<4xi32>, memref<4xi32>
    %x, %total = coop.scan %warp, %v mode = inclusive op = max aggregate
        : !coop.group<warp>, f32 -> f32, f32
    coop.scan %block, %items into %out mode = exclusive op = sum
        prefix = @running_total(%state : memref<1xi32>)
        : !coop.group<block>, memref<4xi32>, memref<4xi32>
    ```
  }];
  let arguments = (ins
    Coop_AnyGroup:$group,
    AnyTypeOf<[Coop_Payload, Coop_Element]>:$input,
    Optional<Coop_Payload>:$output,
    Optional<Coop_Element>:$initial_value,
    Optional<Index>:$valid_items,
    Optional<AnyType>:$prefix_state,
    Optional<Coop_TempStorage>:$temp_storage,
    Coop_ScanModeAttr:$mode,
    OptionalAttr<Coop_BinaryOpAttr>:$kind,
    OptionalAttr<FlatSymbolRefAttr>:$combiner,
    OptionalAttr<FlatSymbolRefAttr>:$prefix_callback,
    OptionalAttr<Coop_ScanAlgorithmAttr>:$algorithm,
    UnitAttr:$aggregate,
    UnitAttr:$is_unsigned);
  let results = (outs Variadic<Coop_Element>:$results);
  let assemblyFormat = [{
    $group `,` $input (`into` $output^)? `mode` `=` `` $mode
    (`op` `=` `` $kind^)? (`combiner` `=` $combiner^)?
    (`initial_value` `=` $initial_value^ `:` type($initial_value))?
    (`valid_items` `=` $valid_items^)?
    (`prefix` `=` $prefix_callback^ ``
     custom<PrefixState>($prefix_state, type($prefix_state)))?
    (`algorithm` `=` `` $algorithm^)?
    (`aggregate` $aggregate^)? (`unsigned` $is_unsigned^)?
    (`temp_storage` `=` $temp_storage^)?
    attr-dict `:` qualified(type($group)) `,` type($input)
    (`,` type($output)^)? (`->` type($results)^)?
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    int64_t getItemsPerThread() {
      if (auto memref = ::llvm::dyn_cast<::mlir::MemRefType>(getInput().getType()))
        return memref.getDimSize(0);
      return 1;
    }
    ::mlir::Type getItemType() {
      ::mlir::Type type = getInput().getType();
      if (auto memref = ::llvm::dyn_cast<::mlir::MemRefType>(type))
        return memref.getElementType();
      return type;
    }
    ::mlir::coop::ScanAlgorithm getBlockAlgorithm() {
      return getAlgorithm().value_or(::mlir::coop::ScanAlgorithm::raking);
    }
    bool isInclusive() { return getMode() == ::mlir::coop::ScanMode::inclusive; }
    ::mlir::LogicalResult verifyPrefix();
  }];
}

def Coop_ReduceBatchedOp : Coop_Op<"reduce_batched", [
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
    DeclareOpInterfaceMethods<Coop_CollectiveOpInterface,
        ["getScratchLayout", "getScratchAccess"]>]> {
  let summary = "reduce each slot of a warp's payloads over the warp";
  let description = [{
    CUB's `WarpReduceBatched`: slot b of every lane's `input` is batch b,
    and each of the B batches is reduced over the (logical) warp of W
    lanes. `output` has `ceil(B/W)` slots: with `layout = striped` (the
    default) slot i of lane r receives batch `r + i*W`, with `blocked`
    batch `r*ceil(B/W) + i`; slots past the last batch are unspecified.

    Recursive halving, as CUB: with the batches padded to a multiple of W,
    each of log2(W) exchange steps (distance W/2 first) hands half of a
    lane's partial results to the lane `distance` away by one `shfl.xor`
    each and combines the half it keeps with the half it receives, so the
    warp exchanges B*(W-1)/W values a lane in all, where a reduction per
    batch would shuffle B*log2(W). The operator is a named one (`op`) or a
    function `(T, T) -> T` (`combiner`); it must be associative and
    commutative (the lanes combine in different orders).

    Rules checked here: warps and logical warps only; exactly one of `op`
    and `combiner`; the combiner takes two items and returns one; bitwise
    operators and `unsigned` need integer items; the output has
    `ceil(B/W)` slots of the input's item type.

    ```mlir
    coop.reduce_batched %warp, %rows into %sums op = sum
        : !coop.group<warp>, memref<64xf32>, memref<2xf32>
    coop.reduce_batched %l, %x into %m combiner = @my_max layout = blocked
        : !coop.group<threads_within_warp, 8>, memref<12xi32>, memref<2xi32>
    ```
  }];
  let arguments = (ins
    Coop_AnyGroup:$group,
    Coop_Payload:$input,
    Coop_Payload:$output,
    Optional<Coop_TempStorage>:$temp_storage,
    OptionalAttr<Coop_BinaryOpAttr>:$kind,
    OptionalAttr<FlatSymbolRefAttr>:$combiner,
    DefaultValuedAttr<Coop_BatchLayoutAttr,
                      "::mlir::coop::BatchLayout::striped">:$layout,
    UnitAttr:$is_unsigned);
  let assemblyFormat = [{
    $group `,` $input `into` $output
    (`op` `=` `` $kind^)? (`combiner` `=` $combiner^)?
    (`layout` `=` `` $layout^)? (`unsigned` $is_unsigned^)?
    (`temp_storage` `=` $temp_storage^)?
    attr-dict `:` qualified(type($group)) `,` type($input) `,` type($output)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    int64_t getItemsPerThread() {
      return ::llvm::cast<::mlir::MemRefType>(getInput().getType()).getDimSize(0);
    }
    ::mlir::Type getItemType() {
      return ::llvm::cast<::mlir::MemRefType>(getInput().getType()).getElementType();
    }
  }];
}

def Coop_SelectOp : Coop_Op<"select", [AttrSizedOperandSegments,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
    DeclareOpInterfaceMethods<Coop_CollectiveOpInterface,
        ["getScratchLayout", "getScratchAccess"]>]> {
  let summary = "compact a group's selected items to the front of its tile";
  let description = [{
    Order-preserving compaction of the group's tile (blocked order), CUB's
    internal `BlockFilter` as CUB composes it: the items whose `flags` entry
    is non-zero, or for which `predicate(item)` is true, move, in order, to
    the first positions of the tile; every thread gets `count`, how many
    were selected (an `i32`, the op's last result). Positions at or past the
    count hold unspecified values. With `valid_items` only the first
    `valid_items` items of the tile (blocked order) can be selected; it
    must be the same in every thread.

    A payload `input` writes the compacted tile to `output` (same type); a
    scalar `input` (one item per thread, its flag a scalar) returns its
    compacted item before the count.

    Blocks count the selected items with one warp scan and one barrier,
    scatter them into scratch and read them back in blocked order after a
    second barrier; warps and logical warps do the same by shuffles in
    their own region of the scratch.

    Rules checked here: exactly one of `flags` and `predicate`; the flags
    have one entry per item (a scalar for a scalar input); `@f`, where the
    module has it, takes an item and returns an `i1`; a payload input has
    an output payload of its type and returns the count alone.

    ```mlir
    %n = coop.select %block, %items into %out flags = %keep : memref<4xi8>
        : !coop.group<block>, memref<4xf32>, memref<4xf32> -> i32
    %x, %m = coop.select %warp, %v predicate = @positive
        : !coop.group<warp>, i32 -> i32, i32
    ```
  }];
  let arguments = (ins
    Coop_AnyGroup:$group,
    AnyTypeOf<[Coop_Payload, Coop_Element]>:$input,
    Optional<Coop_Payload>:$output,
    Optional<AnyTypeOf<[Coop_Flags, I1, I8, I16, I32, I64]>>:$flags,
    Optional<Index>:$valid_items,
    Optional<Coop_TempStorage>:$temp_storage,
    OptionalAttr<FlatSymbolRefAttr>:$predicate);
  let results = (outs Variadic<Coop_Element>:$results);
  let assemblyFormat = [{
    $group `,` $input (`into` $output^)?
    (`flags` `=` $flags^ `:` type($flags))?
    (`predicate` `=` $predicate^)?
    (`valid_items` `=` $valid_items^)?
    (`temp_storage` `=` $temp_storage^)?
    attr-dict `:` qualified(type($group)) `,` type($input)
    (`,` type($output)^)? `->` type($results)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    int64_t getItemsPerThread() {
      if (auto memref = ::llvm::dyn_cast<::mlir::MemRefType>(getInput().getType()))
        return memref.getDimSize(0);
      return 1;
    }
    ::mlir::Type getItemType() {
      ::mlir::Type type = getInput().getType();
      if (auto memref = ::llvm::dyn_cast<::mlir::MemRefType>(type))
        return memref.getElementType();
      return type;
    }
    /// The count of selected items (the last result).
    ::mlir::Value getCount() { return getResults().back(); }
    /// Where the block's warp counts start in the scratch slice, in items
    /// (the compacted tile comes first), or the slice's size when the
    /// group needs no warp counts.
    int64_t getCountsStart(const ::mlir::coop::TileGeometry &tile);
  }];
}

def Coop_HistogramOp : Coop_Op<"histogram", [AttrSizedOperandSegments,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
    DeclareOpInterfaceMethods<Coop_CollectiveOpInterface,
        ["getScratchLayout", "getScratchAccess", "getBlockPrimitive"]>]> {
  let summary = "count a block's samples into bins";
  let description = [{
    CUB's `BlockHistogram`: each of the block's samples (integers; a
    payload, or one scalar a thread) is a bin number, and the op counts how
    many samples fall in each of `bins` bins. Samples outside `[0, bins)`
    (as signed integers, or as unsigned ones with `unsigned`) and, with
    `valid_items`, samples at or past that blocked position are not counted.

    Exactly one destination:
    * `into %output`: fresh striped counters, slot i of thread t holding bin
      `t + i*T` (T threads; slots past `bins` hold 0), plus, with
      `accumulate` (counters of the output's type from an earlier call),
      that payload's counts (CUB's `Composite`);
    * `out = %array`: a 1-D array of at least `bins` counters in shared
      memory (`#gpu.address_space<workgroup>`) or global memory, which the
      op adds its counts into by atomics; the caller zeroes it. A shared
      array is synchronized before and after (a block barrier each), so the
      block may zero it just before and read it just after.

    `atomic` (CUB's `BLOCK_HISTO_ATOMIC`): fresh counters and a global
    array count in the op's scratch: every thread zeroes its striped
    counters, a barrier, one shared atomic add a sample, a barrier, then
    each thread reads its counters (or adds each non-zero one to the global
    array by one atomic). Where a sample may go uncounted, the scratch keeps
    one spare counter past the last bin, which such a sample increments
    instead (never read). A shared array takes the samples' atomics
    directly; there an uncounted sample increments bin 0 and each thread
    takes its such increments back by one more atomic.

    `sort` (CUB's `BLOCK_HISTO_SORT`): the samples' bins (a sample not
    counted as bin `bins`) are radix sorted over the bits that hold
    `bins`; each run of equal bins in the sorted tile records its first
    and past-the-end positions in scratch, and a bin's count is their
    difference, read by the thread of its stripe (added to a shared array
    by that thread, to a global array by one atomic a non-zero bin).

    Rules checked here: blocks only; integer samples; exactly one of the
    output and `out`; counters of 32 or 64 bits; `accumulate` only with an
    output, of its type; `bins` positive; an output of at least
    `ceil(bins / T)` slots (where the block size is known).

    ```mlir
    coop.histogram %block, %samples into %counts bins = 256
        : !coop.group<block>, memref<4xi8>, memref<2xi32>
    coop.histogram %block, %samples out = %hist : memref<?xi64> bins = 64
        unsigned : !coop.group<block>, memref<4xi32>
    ```
  }];
  let arguments = (ins
    Coop_AnyGroup:$group,
    AnyTypeOf<[Coop_Payload, I8, I16, I32, I64]>:$samples,
    Optional<Coop_Payload>:$output,
    Optional<Coop_Payload>:$accumulate,
    Optional<MemRefRankOf<[I32, I64], [1]>>:$out,
    Optional<Index>:$valid_items,
    Optional<Coop_TempStorage>:$temp_storage,
    I64Attr:$bins,
    DefaultValuedAttr<Coop_HistogramAlgorithmAttr,
                      "::mlir::coop::HistogramAlgorithm::atomic">:$algorithm,
    UnitAttr:$is_unsigned);
  let assemblyFormat = [{
    $group `,` $samples (`into` $output^)?
    (`out` `=` $out^ `:` type($out))?
    (`accumulate` `=` $accumulate^ `:` type($accumulate))?
    `bins` `=` $bins
    (`algorithm` `=` `` $algorithm^)? (`unsigned` $is_unsigned^)?
    (`valid_items` `=` $valid_items^)?
    (`temp_storage` `=` $temp_storage^)?
    attr-dict `:` qualified(type($group)) `,` type($samples)
    (`,` type($output)^)?
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    int64_t getItemsPerThread() {
      if (auto memref = ::llvm::dyn_cast<::mlir::MemRefType>(getSamples().getType()))
        return memref.getDimSize(0);
      return 1;
    }
    ::mlir::Type getItemType() {
      ::mlir::Type type = getSamples().getType();
      if (auto memref = ::llvm::dyn_cast<::mlir::MemRefType>(type))
        return memref.getElementType();
      return type;
    }
    /// The counters' type: the output's items, or the `out` array's.
    ::mlir::Type getCounterType() {
      ::mlir::Value counters = getOutput() ? getOutput() : getOut();
      return ::llvm::cast<::mlir::MemRefType>(counters.getType()).getElementType();
    }
    /// Whether `out` is an array in shared memory.
    bool hasSharedOut();
    /// Whether every value of the sample type is a bin (unsigned samples
    /// too narrow to reach `bins`).
    bool everySampleIsABin();
    /// Whether a sample may go uncounted: a sample type with values outside
    /// `[0, bins)`, or `valid_items`.
    bool mayMissSamples() { return getValidItems() || !everySampleIsABin(); }
    /// The sort algorithm's keys: the samples' bins as i32, 4 bits a pass.
    static constexpr int64_t kSortRadixBits = 4;
    ::mlir::coop::TileGeometry getSortTile(const ::mlir::coop::TileGeometry &tile);
    int64_t getSortScratchBytes(const ::mlir::coop::TileGeometry &tile);
  }];
}

def Coop_RunLengthDecodeOp : Coop_Op<"run_length_decode", [
    AttrSizedOperandSegments,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
    DeclareOpInterfaceMethods<Coop_CollectiveOpInterface,
        ["getScratchLayout", "getScratchAccess", "getBlockPrimitive"]>]> {
  let summary = "expand a block's runs into their items";
  let description = [{
    CUB's `BlockRunLengthDecode`: thread t holds runs `t*R .. t*R+R-1` of the
    block (blocked order), run r being `run_lengths[r]` copies of
    `run_values[r]`. Lengths are non-negative integers; a zero-length run
    may be anywhere. The decoded stream is the runs' items in order, and
    its length is the op's `total` result when asked for (the offset type:
    `i32`, or `i64` for streams past 2^32 items).

    Two destinations:
    * `into %output` (a payload of D = `decoded_items_per_thread` items): the
      window form, thread t receiving decoded items `offset + t*D ..
      offset + t*D + D - 1` (`offset` is `window_offset`, 0 when absent), 0
      past the stream's end;
    * `destination = %array`: the whole stream written to
      `array[offset ..]` (`offset`: `window_offset`), one window of `T*D`
      items at a time, at most as many items as the array holds past the
      offset; `total` is required.

    As CUB: an exclusive sum of the lengths gives each run's first offset;
    the runs' offsets and values go to scratch, a barrier, then each thread
    finds the run of its first decoded item by a binary search of the
    offsets and walks forward for the next ones (zero-length runs share
    their successor's offset and are stepped over).

    Rules checked here: blocks only; integer lengths, as many as the
    values; the output's items of the values' type, as many as
    `decoded_items_per_thread`; exactly one of the output and the
    destination; a destination of the values' type and a `total` result;
    `total` an `i32` or `i64`.

    ```mlir
    %n = coop.run_length_decode %block, %values, %lengths into %items
        decoded_items_per_thread = 4
        : !coop.group<block>, memref<2xf32>, memref<2xi32>, memref<4xf32> -> i32
    ```
  }];
  let arguments = (ins
    Coop_AnyGroup:$group,
    Coop_Payload:$run_values,
    Coop_Payload:$run_lengths,
    Optional<Coop_Payload>:$output,
    Optional<Coop_Memory>:$destination,
    Optional<Index>:$window_offset,
    Optional<Coop_TempStorage>:$temp_storage,
    I64Attr:$decoded_items_per_thread);
  let results = (outs Optional<AnyTypeOf<[I32, I64]>>:$total);
  let assemblyFormat = [{
    $group `,` $run_values `,` $run_lengths (`into` $output^)?
    (`destination` `=` $destination^ `:` type($destination))?
    (`offset` `=` $window_offset^)?
    `decoded_items_per_thread` `=` $decoded_items_per_thread
    (`temp_storage` `=` $temp_storage^)?
    attr-dict `:` qualified(type($group)) `,` type($run_values) `,`
    type($run_lengths) (`,` type($output)^)? (`->` type($total)^)?
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    int64_t getItemsPerThread() {
      return ::llvm::cast<::mlir::MemRefType>(getRunValues().getType()).getDimSize(0);
    }
    ::mlir::Type getItemType() {
      return ::llvm::cast<::mlir::MemRefType>(getRunValues().getType()).getElementType();
    }
    /// The decoded offsets' type: the total's, else i32.
    ::mlir::Type getOffsetType() {
      return getTotal() ? getTotal().getType()
                        : ::mlir::IntegerType::get(getContext(), 32);
    }
    /// Where the runs' offsets (then the warps' sums) start in the scratch
    /// slice, in items (the runs' values come first).
    int64_t getOffsetsStart(const ::mlir::coop::TileGeometry &tile);
  }];
}

def Coop_RadixRankOp : Coop_Op<"radix_rank", [AttrSizedOperandSegments,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
    DeclareOpInterfaceMethods<Coop_CollectiveOpInterface,
        ["getScratchLayout", "getScratchAccess", "getBlockPrimitive"]>]> {
  let summary = "rank a block's keys stably by one digit";
  let description = [{
    CUB's `BlockRadixRank`: each key's rank (`i32`) in the block's stable
    order by the digit of bits `[begin_bit, begin_bit + radix_bits)` of its
    bit-ordered form (integers with their sign bit flipped unless
    `unsigned`; floats by CUB's twiddle, -0.0 taken as +0.0), keys in
    blocked order (thread t's item i is position `t*ipt + i`). With
    `descending`, greater digits rank first.

    With `digit_prefix` (a payload of `P = max(1, ceil(2^radix_bits / T))`
    `i32` slots), slot i of thread t receives the number of keys whose digit
    ranks before bin `t*P + i` (bins in ascending digit order either way; 0
    past the last bin), CUB's exclusive digit prefix.

    Rules checked here: blocks only; keys of any item type (integers of 8
    to 64 bits, float16, bfloat16, float32, float64); `unsigned` only with integer keys; `i32` ranks, one per
    key; `radix_bits` in [1, 8] and the digit inside the key; a tile of at
    most 65,535 keys (CUB's 16-bit counters) where the block size is
    known; a `digit_prefix` of `i32` of at least P slots.

    ```mlir
    coop.radix_rank %block, %keys into %ranks begin_bit = 0 radix_bits = 4
        : !coop.group<block>, memref<4xi32>, memref<4xi32>
    ```
  }];
  let arguments = (ins
    Coop_AnyGroup:$group,
    Coop_Payload:$keys,
    Coop_Payload:$ranks,
    Optional<Coop_Payload>:$digit_prefix,
    Optional<Coop_TempStorage>:$temp_storage,
    I64Attr:$begin_bit,
    I64Attr:$radix_bits,
    DefaultValuedAttr<Coop_RadixRankAlgorithmAttr,
                      "::mlir::coop::RadixRankAlgorithm::basic">:$algorithm,
    UnitAttr:$descending,
    UnitAttr:$is_unsigned);
  let assemblyFormat = [{
    $group `,` $keys `into` $ranks
    (`digit_prefix` `=` $digit_prefix^ `:` type($digit_prefix))?
    `begin_bit` `=` $begin_bit `radix_bits` `=` $radix_bits
    (`algorithm` `=` `` $algorithm^)? (`descending` $descending^)?
    (`unsigned` $is_unsigned^)?
    (`temp_storage` `=` $temp_storage^)?
    attr-dict `:` qualified(type($group)) `,` type($keys) `,` type($ranks)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    int64_t getItemsPerThread() {
      return ::llvm::cast<::mlir::MemRefType>(getKeys().getType()).getDimSize(0);
    }
    ::mlir::Type getItemType() {
      return ::llvm::cast<::mlir::MemRefType>(getKeys().getType()).getElementType();
    }
  }];
}

def Coop_RadixSortOp : Coop_Op<"radix_sort", [AttrSizedOperandSegments,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
    DeclareOpInterfaceMethods<Coop_CollectiveOpInterface,
        ["getScratchLayout", "getScratchAccess", "getBlockPrimitive"]>]> {
  let summary = "sort a block's keys (and values) stably by their bits";
  let description = [{
    CUB's `BlockRadixSort`: the block's keys (blocked order) sorted stably,
    ascending or with `descending` descending, by bits `[begin_bit,
    end_bit)` of their bit-ordered form (as `coop.radix_rank`; runtime
    operands, uniform over the block, default the whole key), into
    `output`: blocked order (thread t's item i is sorted position
    `t*ipt + i`), or with `blocked_to_striped` striped (`i*T + t`).
    `values_output` receives each key's value moved with it: `values`'
    items, or without `values` the key's input tile position as an `i32`
    (an argsort). With `valid_items`, only the keys before that blocked
    position take part and the first `valid_items` outputs are defined.

    As CUB: the keys are made bit-ordered, then each pass of `radix_bits`
    bits ranks them (CUB's `BlockRadixRank`, basic) and scatters keys and
    values to their ranks through scratch (CUB's `BlockExchange`), until
    the bits run out. Scratch is the union of the rank's counters and the
    exchanges; keys and values exchange side by side (one barrier fewer a
    pass) where that fits in the union.

    Rules checked here: blocks only; keys as `coop.radix_rank`'s; an output
    of the keys' type; values as many as the keys, and a values output of
    their type (of `i32` without values); `radix_bits` in [1, 8]; a tile of
    at most 65,535 keys where the block size is known.

    ```mlir
    coop.radix_sort %block, %keys into %sorted
        : !coop.group<block>, memref<4xi32>, memref<4xi32>
    coop.radix_sort %block, %keys into %sorted values_into %indices
        descending : !coop.group<block>, memref<4xf32>, memref<4xf32>,
        memref<4xi32>
    ```
  }];
  let arguments = (ins
    Coop_AnyGroup:$group,
    Coop_Payload:$keys,
    Optional<Coop_Payload>:$values,
    Coop_Payload:$output,
    Optional<Coop_Payload>:$values_output,
    Optional<Index>:$begin_bit,
    Optional<Index>:$end_bit,
    Optional<Index>:$valid_items,
    Optional<Coop_TempStorage>:$temp_storage,
    DefaultValuedAttr<I64Attr, "4">:$radix_bits,
    UnitAttr:$descending,
    UnitAttr:$blocked_to_striped,
    UnitAttr:$is_unsigned);
  let assemblyFormat = [{
    $group `,` $keys (`values` `=` $values^ `:` type($values))?
    `into` $output (`values_into` $values_output^ `:` type($values_output))?
    (`begin_bit` `=` $begin_bit^)? (`end_bit` `=` $end_bit^)?
    (`valid_items` `=` $valid_items^)?
    (`descending` $descending^)? (`blocked_to_striped` $blocked_to_striped^)?
    (`unsigned` $is_unsigned^)?
    (`temp_storage` `=` $temp_storage^)?
    attr-dict `:` qualified(type($group)) `,` type($keys) `,` type($output)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    int64_t getItemsPerThread() {
      return ::llvm::cast<::mlir::MemRefType>(getKeys().getType()).getDimSize(0);
    }
    ::mlir::Type getItemType() {
      return ::llvm::cast<::mlir::MemRefType>(getKeys().getType()).getElementType();
    }
    /// The type of the values moved with the keys: the values', or i32
    /// (tile positions); null for keys alone.
    ::mlir::Type getValueType() {
      if (!getValuesOutput())
        return {};
      return ::llvm::cast<::mlir::MemRefType>(getValuesOutput().getType())
          .getElementType();
    }
  }];
}

def Coop_MergeSortOp : Coop_Op<"merge_sort", [AttrSizedOperandSegments,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
    DeclareOpInterfaceMethods<Coop_CollectiveOpInterface,
        ["getScratchLayout", "getScratchAccess"]>]> {
  let summary = "sort a group's keys (and values) by a comparison";
  let description = [{
    CUB's `BlockMergeSort` and `WarpMergeSort`: the group's keys (blocked
    order) sorted by `compare` (a function `(T, T) -> i1`, "a orders before
    b", a strict weak order), by default `<` (unsigned with `unsigned`),
    reversed with `descending`, into `output` (blocked: thread t's item i
    is sorted position `t*ipt + i`). `values_output` receives each key's
    value moved with it. The sort is stable (CUB's `StableSort`; `stable`
    records that the caller relies on it). With `valid_items`, the keys at
    or past that position are replaced by `oob_default`, which must order
    last, before sorting (CUB's partial-tile sort).

    As CUB: each thread sorts its items by a stable odd-even transposition
    network, then log2(group size) rounds merge pairs of sorted runs: the
    keys go to scratch, a barrier, each thread finds its part of the merged
    run by a merge-path search and merges serially, and the values follow
    the keys' positions through scratch.

    Rules checked here: a block of a power-of-two thread count (CUB's
    limit), a warp or a logical warp; an output of the keys' type; values as
    many as the keys and a values output of their type; `valid_items` and
    `oob_default` together, `oob_default` a key; `unsigned` only with integer
    keys and without `compare`.

    ```mlir
    coop.merge_sort %block, %keys into %sorted
        : !coop.group<block>, memref<4xi32>, memref<4xi32>
    coop.merge_sort %warp, %keys values = %v : memref<2xf64> into %sorted
        values_into %moved : memref<2xf64> compare = @by_magnitude
        : !coop.group<warp>, memref<2xf32>, memref<2xf32>
    ```
  }];
  let arguments = (ins
    Coop_AnyGroup:$group,
    Coop_Payload:$keys,
    Optional<Coop_Payload>:$values,
    Coop_Payload:$output,
    Optional<Coop_Payload>:$values_output,
    Optional<Index>:$valid_items,
    Optional<Coop_Element>:$oob_default,
    Optional<Coop_TempStorage>:$temp_storage,
    OptionalAttr<FlatSymbolRefAttr>:$compare,
    UnitAttr:$descending,
    UnitAttr:$stable,
    UnitAttr:$is_unsigned);
  let assemblyFormat = [{
    $group `,` $keys (`values` `=` $values^ `:` type($values))?
    `into` $output (`values_into` $values_output^ `:` type($values_output))?
    (`compare` `=` $compare^)?
    (`valid_items` `=` $valid_items^)?
    (`oob_default` `=` $oob_default^ `:` type($oob_default))?
    (`descending` $descending^)? (`stable` $stable^)?
    (`unsigned` $is_unsigned^)?
    (`temp_storage` `=` $temp_storage^)?
    attr-dict `:` qualified(type($group)) `,` type($keys) `,` type($output)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    int64_t getItemsPerThread() {
      return ::llvm::cast<::mlir::MemRefType>(getKeys().getType()).getDimSize(0);
    }
    ::mlir::Type getItemType() {
      return ::llvm::cast<::mlir::MemRefType>(getKeys().getType()).getElementType();
    }
    ::mlir::Type getValueType() {
      if (!getValues())
        return {};
      return ::llvm::cast<::mlir::MemRefType>(getValues().getType()).getElementType();
    }
  }];
}

#endif // COOP_DIALECT_COOP_IR_COOPOPS_TD
