//===- CoopTypes.td - coop types ---------------------------*- tablegen -*-===//

#ifndef COOP_DIALECT_COOP_IR_COOPTYPES_TD
#define COOP_DIALECT_COOP_IR_COOPTYPES_TD

include "coop/Dialect/Coop/IR/CoopDialect.td"
include "coop/Dialect/Coop/IR/CoopAttrs.td"
include "mlir/IR/AttrTypeBase.td"

class Coop_Type<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<Coop_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

def Coop_GroupType : Coop_Type<"Group", "group"> {
  let summary = "a group of threads that cooperate";
  let description = [{
    Describes the calling thread's group. The kinds mirror the Python API's
    `ThreadGroup.kind`:

    | type | threads | size |
    |---|---|---|
    | `!coop.group<thread>` | the calling thread | 1 |
    | `!coop.group<warp>` | its physical warp | 32 |
    | `!coop.group<block>` | its block | block size (launch fact) |
    | `!coop.group<cluster>` | its cluster | unknown |
    | `!coop.group<grid>` | the grid | unknown |
    | `!coop.group<threads_within_warp, 8>` | a logical warp of 8 lanes | 8 |
    | `!coop.group<warps_within_block, 2>` | 2 physical warps | 64 |

    The partitioned kinds carry their unit count and an `exhaustive` flag;
    a non-exhaustive partition (printed `, non_exhaustive`) allows a
    remainder outside the complete groups.

    ```mlir
    %w = coop.this_warp
    %l = coop.group_by %w, 8 : !coop.group<warp> -> !coop.group<threads_within_warp, 8>
    %r = coop.group_by %w, 3 : !coop.group<warp>
           -> !coop.group<threads_within_warp, 3, non_exhaustive>
    ```
  }];
  let parameters = (ins "::mlir::coop::GroupKind":$kind,
                        DefaultValuedParameter<"unsigned", "0">:$count,
                        DefaultValuedParameter<"bool", "true">:$exhaustive);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let builders = [
    TypeBuilder<(ins "::mlir::coop::GroupKind":$kind), [{
      return $_get($_ctxt, kind, 0u, true);
    }]>
  ];
  let skipDefaultBuilders = 0;
  let extraClassDeclaration = [{
    /// True for the kinds made by `coop.group_by`.
    bool isPartition() const {
      return getKind() == ::mlir::coop::GroupKind::threads_within_warp ||
             getKind() == ::mlir::coop::GroupKind::warps_within_block;
    }
    /// True for physical and logical warps.
    bool isWarpLike() const {
      return getKind() == ::mlir::coop::GroupKind::warp ||
             getKind() == ::mlir::coop::GroupKind::threads_within_warp;
    }
    /// The number of threads, where the type alone determines it.
    std::optional<int64_t> getStaticSize() const;
  }];
}

def Coop_TempStorageType : Coop_Type<"TempStorage", "temp_storage"> {
  let summary = "a descriptor of shared scratch for block algorithms";
  let description = [{
    The value made by `coop.temp_storage`. Its capacity, alignment and
    policies live on the defining op so that the scratch planner sees every
    use of one descriptor.

    ```mlir
    %ts = coop.temp_storage
    ```
  }];
}

#endif // COOP_DIALECT_COOP_IR_COOPTYPES_TD
