"""Every private piece of Numba-CUDA-MLIR the backend relies on, in one place.

The public extension API (`numba_cuda_mlir.extending`, `types`, `errors`,
the lowering builder, the MLIR bindings under `numba_cuda_mlir._mlir`) is
used where it is needed; what is not public is reached only through this
module, so a new Numba-CUDA-MLIR version is checked here
(docs/numba.md, "What the backend relies on in Numba-CUDA-MLIR", has what each
piece is and why we need it).
"""

from __future__ import annotations

import contextvars
import dataclasses
import re

# The release these private pieces were checked against; the compile hooks of
# the disk cache (`install_compile_hooks`) splice its private compile paths,
# and a test fails on any other release until they are checked again.
CHECKED_VERSION = "0.6.0"

from numba_cuda_mlir._launch_config import _LAUNCH_CONFIG_TRACKER_OPTION
from numba_cuda_mlir._mlir import ir
from numba_cuda_mlir._mlir.dialects import func
from numba_cuda_mlir._whole_function_planners import (  # noqa: F401 -- re-exported
    _REQUIRED_DYNAMIC_SHARED_MEMORY_KEY as REQUIRED_DYNAMIC_SHARED_MEMORY_KEY,
)
from numba_cuda_mlir._whole_function_planners import WholeFunctionPlanner, _planner_registry
from numba_cuda_mlir.descriptor import MLIRDispatcher  # noqa: F401 -- re-exported
from numba_cuda_mlir.numba_cuda.core import ir as nir  # noqa: F401 -- re-exported
from numba_cuda_mlir.numba_cuda.core.ir_utils import build_definitions
from numba_cuda_mlir.numba_cuda.dispatcher import (  # noqa: F401 -- re-exported
    CUDADispatcher as NumbaCudaDispatcher,
)
from numba_cuda_mlir.numba_cuda.np.numpy_support import from_dtype  # noqa: F401
from numba_cuda_mlir.numba_cuda.types import Dispatcher  # noqa: F401 -- re-exported
from numba_cuda_mlir.tools import generate_mangled_name as mangled_name  # noqa: F401


# Numba-CUDA-MLIR's MLIR lowering modules take about 0.3 s to import; they are
# imported where they are used, at the first compile, not when the backend is
# registered.


def link_target(module):
    """The gpu.module body that Numba links device code into."""
    from numba_cuda_mlir.lowering_utilities import link

    return link._find_link_target(module.operation)


def mlir_context():
    """Numba's MLIR context, as a context manager."""
    from numba_cuda_mlir.lowering_utilities import context

    return context.get_context()


def rebuild_definitions(func_ir) -> None:
    """Recomputes the variable definitions of Numba IR after a rewrite
    (inlined helpers bind parameters with assignments the recorded
    definitions may not list yet)."""
    func_ir._definitions = build_definitions(func_ir.blocks)


def definitions(func_ir, name: str) -> list:
    """The recorded definitions of the variable `name`."""
    return func_ir._definitions.get(name, [])


def wrap_optimize(before) -> None:
    """Runs `before(cres)` ahead of Numba's MLIR optimization of each
    compile: numba_cuda_mlir.mlir_optimization.optimize is looked up at each
    call, so replacing it is the splice point (docs/numba.md). Idempotent."""
    import numba_cuda_mlir.mlir_optimization as optimization

    original = optimization.optimize
    if getattr(original, "_coop_wrapped", False):
        return

    def optimize(cres, *args, **kwargs):
        before(cres)
        return original(cres, *args, **kwargs)

    optimize._coop_wrapped = True
    optimization.optimize = optimize


def translate_exact_blocks() -> None:
    """Gives a kernel whose MLIR carries `nvvm.reqntid` the `.reqntid` it
    asks for on GPUs below sm_100 (from sm_100 on, Numba-CUDA-MLIR's
    translation is MLIR's own, which writes it). Below, Numba-CUDA-MLIR
    0.6.0 translates to LLVM 7's NVVM IR in a C library that writes `maxntid`
    annotations for `nvvm.maxntid` and nothing for `nvvm.reqntid`
    (docs/numba.md). For such a kernel the library is
    given `nvvm.maxntid` and asked for its LLVM IR text instead of its code;
    the kernel's `maxntid` annotations become `reqntid` ones, and libnvvm
    compiles the text with the options the library passes (`-arch`, `-opt`,
    `-gen-lto`), so everything else in the code is the same (1281 of the
    1284 reduce/scan benchmark kernels' PTX alike byte for byte with the
    rename left out; the other three differ as nvJitLink's output of one
    LTO-IR does from run to run). `_call_llvm70_capi` is looked up at each
    call. Idempotent."""
    import numba_cuda_mlir.mlir_optimization as optimization

    original = optimization._call_llvm70_capi
    if getattr(original, "_coop_wrapped", False):
        return

    def call(module, target_options, gen_lto=False, gen_llvmir=False):
        # The library's text of debug info does not go back through libnvvm
        # (an emission kind LLVM 7 cannot name; no line table once it is
        # named), so debug and lineinfo kernels keep `.maxntid`.
        debug_info = target_options.get("debug") or target_options.get("lineinfo")
        exact = _exact_block_kernels(module)
        for kernel in exact:
            kernel.attributes["nvvm.maxntid"] = kernel.attributes["nvvm.reqntid"]
        if debug_info or not exact:
            return original(module, target_options, gen_lto, gen_llvmir)
        text = original(module, target_options, gen_lto, gen_llvmir=True).decode()
        text = _require_blocks(text, [ir.StringAttr(k.attributes["sym_name"]).value
                                      for k in exact])
        if gen_llvmir:
            return text.encode()
        return _nvvm_compile(text, target_options, gen_lto)

    call._coop_wrapped = True
    optimization._call_llvm70_capi = call


def _exact_block_kernels(module) -> list:
    """The kernels of `module` (lowered to llvm.func) that carry `nvvm.reqntid`."""
    kernels = []

    def visit(op):
        if op.name != "llvm.func":
            return ir.WalkResult.ADVANCE
        if "nvvm.reqntid" in op.attributes:
            kernels.append(op)
        return ir.WalkResult.SKIP  # every Numba compile comes here: not the bodies

    module.operation.walk(visit, ir.WalkOrder.PRE_ORDER)
    return kernels


def _require_blocks(text: str, kernels: list[str]) -> str:
    """LLVM 7 IR text whose `kernels` have `reqntid{x,y,z}` annotations in
    place of their `maxntid{x,y,z}` ones."""
    for name in kernels:
        pattern = re.compile(r'(@"?' + re.escape(name) + r'"?, !")maxntid([xyz]")')
        text, count = pattern.subn(r"\1reqntid\2", text)
        if count != 3:
            raise RuntimeError(f"cuda.coop: Numba-CUDA-MLIR's LLVM 7 IR of kernel {name} "
                               f"has {count} maxntid annotations, not 3; this "
                               f"Numba-CUDA-MLIR version is not one cuda.coop supports")
    return text


def _nvvm_compile(text: str, target_options, gen_lto: bool) -> bytes:
    """libnvvm's LTO-IR (or PTX) of LLVM 7 IR text, with libdevice, as the
    C library compiles its own translation: without libnvvm's verifier,
    which would reject the translation's data layout (no i128) and the zero
    initializers it gives shared globals, both of which the compile takes."""
    from numba_cuda_mlir.numba_cuda.cudadrv.nvvm import CompilationUnit, LibDevice
    from numba_cuda_mlir.tools import get_gpu_compute_capability

    chip = target_options.get("chip") or get_gpu_compute_capability()
    options = {"arch": "compute_" + chip.replace("sm_", ""),
               "opt": int(target_options.get("opt_level", 2))}
    if gen_lto:
        options["gen-lto"] = None
    unit = CompilationUnit(options)
    unit.add_module(text.encode())
    unit.lazy_add_module(LibDevice().get())
    return unit.compile()


def link_whole_program(cres) -> None:
    """Has nvJitLink generate a coop kernel's code from LTO-IR, as
    `cuda.jit(lto=True)` would, where the user left `lto` unset.

    Numba otherwise hands nvJitLink PTX, which it compiles as relocatable
    code (`ptxas -c`) without the kernel's shared memory and so without its
    occupancy: 1024-thread int32 raking sums took 34-40 registers instead of
    CUB's 30-31 and ran at 0.58-0.75 of CUB (docs/numba.md, "Link-time code
    generation"). Left alone: an explicit `lto`, `debug` (Numba keeps
    it off LTO), `compile_ptx`-style outputs, and kernels that link external
    files, whose kinds Numba's own link plan weighs."""
    plan = cres.metadata.get("link_plan")
    options = cres.metadata["targetoptions"]
    if (plan is None or plan.compile_new_inputs_as_ltoir or plan.lto_explicit
            or plan.has_external_link_items or options.get("debug")
            or options.get("_compile_output") is not None):
        return
    cres.metadata["link_plan"] = dataclasses.replace(
        plan, compile_new_inputs_as_ltoir=True, requested_lto=True)


def compile_device_callee(dispatcher, argtypes, symbol):
    """The dispatcher compiled as a device function callee (unoptimized,
    cached per argument types and symbol): the path Numba's own calls take."""
    return dispatcher._compile_as_device_callee(argtypes, abi_name=symbol)


def link_compiled(builder, result, symbol):
    """Clones a device function's compile result into the kernel's module
    (existing symbols are kept) and returns its func.func, made private so
    the inliner erases it once every call is inlined."""
    from numba_cuda_mlir.lowering_utilities import link
    from numba_cuda_mlir.mlir_lowering import get_mlir_module_str

    if linker := result.metadata.get("linker"):
        builder._record_ltoirs_from_linker(linker)
    body = builder.mlir_gpu_module.regions[0].blocks[0]
    before = {op.name.value for op in body if isinstance(op, func.FuncOp)}
    link.link_inplace(builder.mlir_module, get_mlir_module_str(result.metadata))
    callee = next(op for op in body if isinstance(op, func.FuncOp) and op.name.value == symbol)
    if symbol not in before:
        callee.attributes["sym_visibility"] = ir.StringAttr.get("private")
    return callee


def register_planner(planner_cls) -> None:
    """Registers a whole-function planner without importing
    `numba_cuda_mlir.extending` (about 0.1 s), which the first compile
    imports anyway."""
    _planner_registry.register(planner_cls)


def planner_base():
    """The class whole-function planners derive from."""
    return WholeFunctionPlanner


# The dispatcher whose launch compile is under way in this thread (compiles
# nest: a kernel's ForceLiteralArg retry, device functions).
_compiling = contextvars.ContextVar("coop_compiling", default=None)


def install_compile_hooks(before_compile, cache) -> None:
    """Runs `before_compile()` ahead of every dispatcher compile that is not
    a cache hit (the backend's first-compile installation, which a process
    whose kernels all come from the cache never pays) and has `cache` (the
    `_disk_cache` module) serve and save the compiles of dispatchers made with
    `cache=True`.

    Numba-CUDA-MLIR skips its own disk cache for every kernel while a
    planner is registered, and never caches launch-specialized kernels. Its
    two compile paths are spliced: `MLIRDispatcher._compile_impl` (a launch,
    or `_compile_launch_config_signature`), through the
    `mlir_compiler.mlir_compiler_entry` it calls, so a cache hit is published
    by Numba-CUDA-MLIR's own code as a compile would be; and
    `MLIRDispatcher._compile_public` (`kernel.compile(sig)`, explicit
    signatures), whose disk hit is reproduced as Numba-CUDA-MLIR writes its
    own. Idempotent."""
    compile_impl = MLIRDispatcher._compile_impl
    if getattr(compile_impl, "_coop_wrapped", False):
        return
    compile_public = MLIRDispatcher._compile_public

    def _compile_impl(self, args, *rest, **kwargs):
        _wrap_compiler_entry(before_compile, cache)
        if cache.enabled(self):
            # The notice says launch-specialized compiles are never cached
            # on disk; ours are.
            self._launch_config_cache_notice_emitted = True
        token = _compiling.set(self)
        try:
            return compile_impl(self, args, *rest, **kwargs)
        finally:
            _compiling.reset(token)

    def _compile_public(self, sig, abi_info=None, output=None):
        def compile():
            before_compile()
            return compile_public(self, sig, abi_info=abi_info, output=output)

        if abi_info is not None or output is not None or not cache.enabled(self):
            return compile()
        return cache.compile_signature(self, sig, compile)

    _compile_impl._coop_wrapped = True
    MLIRDispatcher._compile_impl = _compile_impl
    MLIRDispatcher._compile_public = _compile_public


def _wrap_compiler_entry(before_compile, cache) -> None:
    """Routes the launch compiles of caching dispatchers through `cache`;
    `mlir_compiler.mlir_compiler_entry` is looked up at each call."""
    from numba_cuda_mlir import mlir_compiler

    original = mlir_compiler.mlir_compiler_entry
    if getattr(original, "_coop_wrapped", False):
        return

    def entry(pyfunc, func_args, targetoptions, abi="c", abi_info=None, override_argtypes=None):
        def compile():
            before_compile()
            return original(pyfunc, func_args, targetoptions, abi=abi, abi_info=abi_info,
                            override_argtypes=override_argtypes)

        dispatcher = _compiling.get()
        if dispatcher is None or dispatcher.py_func is not pyfunc or not cache.enabled(dispatcher):
            return compile()
        return cache.compile_launch(dispatcher, targetoptions, func_args, override_argtypes,
                                    compile)

    entry._coop_wrapped = True
    mlir_compiler.mlir_compiler_entry = entry


def launch_tracker(targetoptions):
    """The tracker through which a launch compile asks for its launch
    configuration (None when the configuration was given)."""
    return targetoptions.get(_LAUNCH_CONFIG_TRACKER_OPTION)


def cache_location(dispatcher):
    """(directory, file name prefix) of Numba-CUDA-MLIR's cache of
    `dispatcher`: beside its source, else the user-wide directory
    (`NUMBA_CACHE_DIR` overrides), its files named for the function and its
    line; None when the dispatcher does not cache."""
    cache = getattr(dispatcher, "_cache", None)
    directory = getattr(cache, "_cache_path", None)
    if directory is None:
        return None
    return directory, cache._impl.filename_base


def count_cache(dispatcher, argtypes, hit: bool) -> None:
    """Counts a disk cache hit or miss in `dispatcher.stats`."""
    counter = dispatcher._cache_hits if hit else dispatcher._cache_misses
    counter[tuple(argtypes)] += 1


def cached_result(signature, metadata):
    """A compile result rebuilt from a cache entry, as Numba-CUDA-MLIR
    rebuilds its own."""
    from numba_cuda_mlir.caching import CachedCompileResult

    return CachedCompileResult(signature=signature, metadata=metadata)


def publish_cached(dispatcher, argtypes, cres):
    """Publishes a cache hit of `kernel.compile(sig)` as Numba-CUDA-MLIR
    publishes its own disk hits (descriptor.py, `_compile_public`)."""
    from numba_cuda_mlir.compiler import CompileResult

    wrapped = CompileResult(cres)
    dispatcher.overloads[tuple(argtypes)] = wrapped
    return wrapped


def compiled_overload(dispatcher, argtypes):
    """The in-memory overload `kernel.compile(sig)` already has, or None."""
    return dispatcher.overloads.get(tuple(argtypes))


def argument_types(args) -> tuple:
    """The Numba types of a launch's arguments, as the dispatcher infers them."""
    from numba_cuda_mlir.numba_cuda.typing.typeof import typeof

    return tuple(typeof(arg) for arg in args)


def signature_arguments(sig) -> tuple:
    """The argument types of a `kernel.compile(sig)` signature."""
    from numba_cuda_mlir.numba_cuda.core import sigutils

    return tuple(sigutils.normalize_signature(sig)[0])


def unliteral(numba_type):
    """The type a literal type widens to (itself for other types)."""
    from numba_cuda_mlir.numba_cuda.types import unliteral

    return unliteral(numba_type)
