//===- PlanScratch.cpp - size, align and place coop scratch ---------------===//

#include "coop/Dialect/Coop/IR/CoopOps.h"
#include "coop/Dialect/Coop/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/Support/MathExtras.h"

#define DEBUG_TYPE "coop-plan-scratch"

namespace mlir::coop {
#define GEN_PASS_DEF_COOPPLANSCRATCH
#include "coop/Dialect/Coop/Transforms/Passes.h.inc"
} // namespace mlir::coop

using namespace mlir;
using namespace mlir::coop;

namespace {

/// The scratch uses that share one region of the buffer: the compiler's
/// implicit region, or one temp_storage descriptor.
struct Region {
  TempStorageOp descriptor; // null for the implicit region
  SmallVector<std::pair<Operation *, int64_t>> uses; // op, bytes it needs
  SmallVector<ReserveOp> reserved; // the program's arrays, placed first
};

struct PlanScratch : coop::impl::CoopPlanScratchBase<PlanScratch> {
  void runOnOperation() override {
    WalkResult result = getOperation()->walk([&](FunctionOpInterface fn) {
      return failed(planFunction(fn)) ? WalkResult::interrupt()
                                      : WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }

  LogicalResult planFunction(FunctionOpInterface fn) {
    Region implicit;
    llvm::MapVector<Operation *, Region> explicitRegions;
    // The region of a descriptor made in this function, or null (with an
    // error) for storage from elsewhere.
    auto regionOf = [&](Operation *op, Value storage) -> Region * {
      auto descriptor = storage.getDefiningOp<TempStorageOp>();
      if (!descriptor ||
          descriptor->getParentOfType<FunctionOpInterface>() != fn) {
        op->emitOpError("temp_storage must be made by a coop.temp_storage in "
                        "the same function, so its uses can be planned "
                        "together");
        return nullptr;
      }
      Region &region = explicitRegions[descriptor];
      region.descriptor = descriptor;
      return &region;
    };
    WalkResult walk = fn->walk([&](Operation *op) {
      // Nested functions are planned on their own.
      if (op->getParentOfType<FunctionOpInterface>() != fn)
        return WalkResult::advance();
      if (auto reserve = dyn_cast<ReserveOp>(op)) {
        Region *region = regionOf(op, reserve.getTempStorage());
        if (!region)
          return WalkResult::interrupt();
        region->reserved.push_back(reserve);
        return WalkResult::advance();
      }
      auto collective = dyn_cast<CollectiveOpInterface>(op);
      if (!collective || !hasScratchEffect(op))
        return WalkResult::advance();
      FailureOr<TileGeometry> tile = getTileGeometry(collective);
      if (failed(tile))
        return WalkResult::interrupt();
      std::optional<ScratchLayout> layout = collective.getScratchLayout(*tile);
      if (!layout)
        return WalkResult::advance();
      int64_t bytes = layout->bytes(tile->elementBytes);
      Value storage = collective.getTempStorage();
      if (!storage) {
        implicit.uses.push_back({op, bytes});
        return WalkResult::advance();
      }
      Region *region = regionOf(op, storage);
      if (!region)
        return WalkResult::interrupt();
      region->uses.push_back({op, bytes});
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      return failure();
    if (implicit.uses.empty() && explicitRegions.empty())
      return success();

    int64_t end = 0;
    int64_t bufferAlignment = kScratchAlignment;
    auto place = [&](Region &region) -> LogicalResult {
      int64_t alignment = kScratchAlignment;
      bool exclusive = false;
      if (region.descriptor) {
        if (std::optional<int64_t> requested = region.descriptor.getAlignment())
          alignment = std::max(alignment, *requested);
        exclusive = region.descriptor.getSharing() == Sharing::exclusive;
      }
      // The reserved arrays first, one after another, then the slices:
      // all at one start when shared, one after another when exclusive.
      SmallVector<int64_t> reservedOffsets;
      int64_t needed = 0;
      for (ReserveOp reserve : region.reserved) {
        int64_t reserveAlignment = reserve.getByteAlignment();
        alignment = std::max(alignment, reserveAlignment);
        int64_t at = llvm::alignTo(needed, reserveAlignment);
        reservedOffsets.push_back(at);
        needed = at + reserve.getBytes();
      }
      int64_t slicesStart = llvm::alignTo(needed, alignment);
      SmallVector<int64_t> sliceOffsets;
      for (auto &[op, bytes] : region.uses) {
        int64_t at =
            exclusive ? llvm::alignTo(std::max(needed, slicesStart), alignment)
                      : slicesStart;
        sliceOffsets.push_back(at);
        needed = std::max(needed, at + bytes);
      }
      int64_t capacity = needed;
      if (region.descriptor) {
        if (std::optional<int64_t> size = region.descriptor.getSizeInBytes()) {
          if (*size < needed) {
            InFlightDiagnostic diag =
                region.descriptor.emitOpError("temp_storage of ")
                << *size << " bytes is too small: its uses need " << needed
                << " bytes; set size_in_bytes to at least " << needed
                << " or omit it to let the compiler size it";
            for (ReserveOp reserve : region.reserved)
              diag.attachNote(reserve.getLoc())
                  << "this reserved array takes " << reserve.getBytes()
                  << " bytes";
            for (auto &[op, bytes] : region.uses)
              diag.attachNote(op->getLoc())
                  << "this use needs " << bytes << " bytes";
            return failure();
          }
          capacity = *size;
        }
      }
      int64_t base = llvm::alignTo(end, alignment);
      bufferAlignment = std::max(bufferAlignment, alignment);
      OpBuilder builder(fn->getContext());
      for (auto [use, slice] : llvm::zip(region.uses, sliceOffsets)) {
        use.first->setAttr(kScratchOffsetAttr,
                           builder.getI64IntegerAttr(base + slice));
        ++numPlannedOps;
      }
      for (auto [reserve, at] : llvm::zip(region.reserved, reservedOffsets))
        reserve->setAttr(kScratchOffsetAttr,
                         builder.getI64IntegerAttr(base + at));
      end = base + capacity;
      return success();
    };
    if (!implicit.uses.empty() && failed(place(implicit)))
      return failure();
    for (auto &entry : explicitRegions)
      if (failed(place(entry.second)))
        return failure();

    OpBuilder builder(fn->getContext());
    // The buffer is aligned, its size is what the slices need (CUB's
    // sizeof(TempStorage), e.g. a merge sort's tile and one item more).
    int64_t size = end;
    fn->setAttr(kScratchSizeAttr, builder.getI64IntegerAttr(size));
    fn->setAttr(kScratchAlignmentAttr, builder.getI64IntegerAttr(bufferAlignment));
    if (size > kStaticSharedMemoryLimit)
      fn->setAttr(kDynamicSharedMemoryAttr, builder.getUnitAttr());
    else
      fn->removeAttr(kDynamicSharedMemoryAttr);
    return success();
  }
};

} // namespace
