//===- LaunchFacts.cpp - launch dimensions known at compile time ----------===//

#include "coop/Dialect/Coop/IR/LaunchFacts.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/Support/MathExtras.h"

#include <limits>

using namespace mlir;

std::optional<std::array<int64_t, 3>> mlir::coop::getKnownBlockDims(Operation *op) {
  Operation *start = isa<FunctionOpInterface>(op)
                         ? op
                         : op->getParentOfType<FunctionOpInterface>();
  for (Operation *fn = start; fn;
       fn = fn->getParentOfType<FunctionOpInterface>()) {
    std::optional<ArrayRef<int32_t>> dims;
    if (auto gpuFunc = dyn_cast<gpu::GPUFuncOp>(fn))
      dims = gpuFunc.getKnownBlockSize();
    else if (auto attr = fn->getAttrOfType<DenseI32ArrayAttr>(
                 gpu::GPUDialect::KnownBlockSizeAttrHelper::getNameStr()))
      dims = attr.asArrayRef();
    if (!dims)
      continue;
    // The GPU dialect's own verifiers report malformed annotations; here a
    // malformed one is simply not a launch fact.
    if (dims->size() != 3 || llvm::any_of(*dims, [](int32_t d) { return d <= 0; }))
      return std::nullopt;
    return std::array<int64_t, 3>{(*dims)[0], (*dims)[1], (*dims)[2]};
  }
  return std::nullopt;
}

std::optional<int64_t> mlir::coop::getKnownBlockSize(Operation *op) {
  std::optional<std::array<int64_t, 3>> dims = getKnownBlockDims(op);
  if (!dims)
    return std::nullopt;
  // Extents are positive i32 values, so the product of three fits in
  // 93 bits; anything past CUDA's 1024 threads per block is nonsense anyway,
  // so saturate instead of overflowing.
  int64_t size = 1;
  for (int64_t d : *dims) {
    if (llvm::MulOverflow(size, d, size))
      return std::numeric_limits<int64_t>::max();
  }
  return size;
}
