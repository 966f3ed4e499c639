//===- Bitcode.cpp - one call site as LLVM bitcode for a host DSL ----------===//
//
// A host compiler whose MLIR is private to it (CuTe DSL's) cannot load our
// dialect, but links LLVM bitcode into its kernels and inlines it. A site is
// built as for coopLowerSite, planned on its own with a leading barrier when
// it uses scratch (its static buffer is reused by every execution), lowered
// to the NVVM and LLVM dialects with payloads as bare pointers, translated to
// LLVM IR and written as bitcode the host's LLVM links.
//
//===----------------------------------------------------------------------===//

#include "SiteBuilder.h"

#include "coop/Dialect/Coop/IR/CoopCollective.h"
#include "coop/Dialect/Coop/IR/CoopOps.h"
#include "coop/InitAll.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::coop;
using namespace mlir::coop::capi;

/// NVVM's data layout (libNVVM's, which the host compiles with): 64-bit
/// generic and 32-bit shared pointers.
static constexpr llvm::StringLiteral kNVVMDataLayout =
    "e-p:64:64:64-p3:32:32:32-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-"
    "i128:128:128-f32:32:32-f64:64:64-v16:16:16-v32:32:32-v64:64:64-"
    "v128:128:128-n16:32:64";
static constexpr llvm::StringLiteral kNVPTXTriple = "nvptx64-nvidia-cuda";

/// The gpu.module body lowered to the NVVM and LLVM dialects, payload
/// memrefs as bare pointers.
static constexpr llvm::StringLiteral kToNVVM =
    "convert-scf-to-cf,gpu.module(convert-gpu-to-nvvm{"
    "use-bare-ptr-memref-call-conv=1}),canonicalize,cse,"
    "reconcile-unrealized-casts";

/// A barrier of its group before each op of `function` that uses scratch.
static void syncBeforeScratch(func::FuncOp function) {
  function.walk([](CollectiveOpInterface op) {
    if (!hasScratchEffect(op))
      return;
    FailureOr<TileGeometry> tile = getTileGeometry(op);
    if (failed(tile) || !op.getScratchLayout(*tile))
      return;
    OpBuilder b(op);
    BarrierOp::create(b, op->getLoc(), op.getGroup());
  });
}

/// `function` returning its first result and writing the others through
/// trailing pointer parameters, one per result: a host's foreign call
/// returns one value.
static void resultsThroughPointers(func::FuncOp function) {
  FunctionType type = function.getFunctionType();
  if (type.getNumResults() <= 1)
    return;
  Location loc = function.getLoc();
  SmallVector<Type> inputs(type.getInputs());
  SmallVector<Value> outs;
  for (Type result : type.getResults().drop_front()) {
    auto out = MemRefType::get({1}, result);
    inputs.push_back(out);
    outs.push_back(function.front().addArgument(out, loc));
  }
  function.walk([&](func::ReturnOp ret) {
    OpBuilder b(ret);
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    for (auto [value, out] : llvm::zip(ret.getOperands().drop_front(), outs))
      memref::StoreOp::create(b, loc, value, out, zero);
    ret->setOperands(ret.getOperand(0));
  });
  function.setType(FunctionType::get(function.getContext(), inputs,
                                     type.getResults().take_front()));
}

static PassManager *nvvmStage() {
  return threadPassManager("<bitcode nvvm>", [](PassManager &pm) {
    registerCoopAndUpstreamPasses();
    return parsePassPipeline(kToNVVM, pm);
  });
}

/// Moves the body of `from` (a module-like op) to the end of `to`'s.
static void moveBody(Operation *from, Block &to) {
  Block &body = from->getRegion(0).front();
  to.getOperations().splice(to.end(), body.getOperations());
}

static void registerTranslations(MLIRContext &context) {
  thread_local bool registered = false;
  if (registered)
    return;
  registerBuiltinDialectTranslation(context);
  registerLLVMDialectTranslation(context);
  registerNVVMDialectTranslation(context);
  registered = true;
}

/// Whether the site's op is a block's and uses scratch.
static bool usesBlockScratch(func::FuncOp function) {
  bool found = false;
  function.walk([&](CollectiveOpInterface op) {
    auto group = dyn_cast<GroupType>(op.getGroup().getType());
    if (!group || group.getKind() != GroupKind::block || !hasScratchEffect(op))
      return;
    FailureOr<TileGeometry> tile = getTileGeometry(op);
    found |= succeeded(tile) && op.getScratchLayout(*tile).has_value();
  });
  return found;
}

CoopPipelineResult coopEmitScratchBitcode(const char *name, int64_t size,
                                          int64_t alignment) {
  auto *result = new CoopPipelineResultImpl;
  if (!name || !*name || size <= 0 || alignment <= 0 ||
      !llvm::isPowerOf2_64(alignment)) {
    result->diagnostics.push_back(
        {COOP_SEVERITY_ERROR, "<unknown>",
         "a scratch buffer needs a name, a positive size and a power-of-two "
         "alignment"});
    return result;
  }
  llvm::LLVMContext llvmContext;
  llvm::Module module(name, llvmContext);
  module.setTargetTriple(llvm::Triple(kNVPTXTriple));
  module.setDataLayout(kNVVMDataLayout);
  auto *type = llvm::ArrayType::get(llvm::Type::getInt8Ty(llvmContext), size);
  auto *global = new llvm::GlobalVariable(
      module, type, /*isConstant=*/false, llvm::GlobalValue::ExternalLinkage,
      llvm::UndefValue::get(type), name, nullptr,
      llvm::GlobalValue::NotThreadLocal, /*AddressSpace=*/3);
  global->setAlignment(llvm::Align(alignment));
  llvm::raw_string_ostream os(result->output);
  llvm::WriteBitcodeToFile(module, os);
  result->succeeded = true;
  return result;
}

CoopPipelineResult coopEmitSiteBitcode(const CoopSite *site, int sm,
                                       const char *sharedBuffer, int firstUse,
                                       int64_t *sharedSize,
                                       int64_t *sharedAlignment) {
  auto *result = new CoopPipelineResultImpl;
  if (!site) {
    result->diagnostics.push_back({COOP_SEVERITY_ERROR, "<unknown>", "no site"});
    return result;
  }
  MLIRContext &context = threadContext();
  registerTranslations(context);
  DiagnosticCapture capture(result->diagnostics);
  Location loc = UnknownLoc::get(&context);
  OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
  FailureOr<func::FuncOp> function =
      buildSiteFunction(*module, *site, nullptr, result->diagnostics);
  if (failed(function) || failed(verify(*module)))
    return result;
  loc = function->getLoc();
  function->setPublic();
  (*function)->setAttr(kInlinedSiteAttr, UnitAttr::get(&context));
  bool shared = sharedBuffer && *sharedBuffer && usesBlockScratch(*function);
  if (shared)
    (*function)->setAttr(kScratchSymbolAttr, StringAttr::get(&context, sharedBuffer));
  if (!firstUse)
    syncBeforeScratch(*function);
  resultsThroughPointers(*function);
  PassManager *coop = stagePassManager(COOP_SITE_LOWER, sm);
  if (!coop || failed(coop->run(*module)))
    return result;
  if (sharedSize)
    *sharedSize = 0;
  if (sharedAlignment)
    *sharedAlignment = 0;
  if (shared) {
    // The buffer becomes a declaration of the host's definition: every
    // block site of a kernel starts at its offset 0.
    auto global = module->lookupSymbol<memref::GlobalOp>(sharedBuffer);
    if (global) {
      if (sharedSize)
        *sharedSize = global.getType().getNumElements();
      if (sharedAlignment)
        *sharedAlignment = global.getAlignment().value_or(1);
      global.setPublic();
    }
  }
  bool dynamic = false;
  module->walk([&](gpu::DynamicSharedMemoryOp) { dynamic = true; });
  if (dynamic) {
    recordError(result->diagnostics, loc,
                "the site's scratch exceeds 48 KiB of static shared memory, "
                "which is all a bitcode site may use: use a smaller tile");
    return result;
  }

  // convert-gpu-to-nvvm lowers gpu.module bodies: the site's module moves
  // into one and back.
  OpBuilder b(&context);
  OwningOpRef<ModuleOp> outer = ModuleOp::create(loc);
  b.setInsertionPointToStart(outer->getBody());
  auto gpuModule = gpu::GPUModuleOp::create(b, loc, "coop_site");
  moveBody(*module, gpuModule.getBodyRegion().front());
  PassManager *nvvm = nvvmStage();
  if (!nvvm || failed(nvvm->run(*outer)))
    return result;
  OwningOpRef<ModuleOp> lowered = ModuleOp::create(loc);
  moveBody(gpuModule, *lowered->getBody());

  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(*lowered, llvmContext, site->name);
  if (!llvmModule) {
    recordError(result->diagnostics, loc,
                "internal error: the lowered site does not translate to LLVM IR");
    return result;
  }
  llvmModule->setTargetTriple(llvm::Triple(kNVPTXTriple));
  llvmModule->setDataLayout(kNVVMDataLayout);
  for (llvm::StringRef name : {"llvm.module.flags", "nvvmir.version"})
    if (llvm::NamedMDNode *node = llvmModule->getNamedMetadata(name))
      llvmModule->eraseNamedMetadata(node);
  llvm::raw_string_ostream os(result->output);
  llvm::WriteBitcodeToFile(*llvmModule, os);
  result->succeeded = true;
  return result;
}
