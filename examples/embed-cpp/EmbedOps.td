//===- EmbedOps.td - the example DSL's own dialect ---------*- tablegen -*-===//
//
// A stand-in for the dialect of a DSL that embeds coop: one op that works on
// the same per-thread payloads (memrefs) that coop.load fills.
//
//===----------------------------------------------------------------------===//

#ifndef EMBED_OPS
#define EMBED_OPS

include "mlir/IR/OpBase.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def Embed_Dialect : Dialect {
  let name = "embed";
  let summary = "The example DSL's dialect";
  let cppNamespace = "::embed";
}

def Embed_ScaleOp : Op<Embed_Dialect, "scale"> {
  let summary = "Multiplies every item of a payload by a factor, in place";
  let description = [{
    ```mlir
    embed.scale %items by %factor : memref<4xi32>, i32
    ```
  }];
  let arguments = (ins
    Arg<StaticShapeMemRefOf<[AnySignlessInteger]>, "the payload",
        [MemRead, MemWrite]>:$items,
    AnySignlessInteger:$factor);
  let assemblyFormat = "$items `by` $factor attr-dict `:` type($items) `,` type($factor)";
  let hasVerifier = 1;
}

#endif // EMBED_OPS
