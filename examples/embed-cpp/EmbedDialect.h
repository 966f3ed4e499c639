//===- EmbedDialect.h - the example DSL's dialect ---------------*- C++ -*-===//

#ifndef EMBED_EMBEDDIALECT_H
#define EMBED_EMBEDDIALECT_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "EmbedOpsDialect.h.inc"

#define GET_OP_CLASSES
#include "EmbedOps.h.inc"

namespace embed {
/// Registers `embed-lower-scale`: embed.scale to an scf.for over the items.
void registerLowerScalePass();
} // namespace embed

#endif // EMBED_EMBEDDIALECT_H
