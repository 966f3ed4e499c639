# The MLIR our build uses (the pip-installed kit, see CoopMLIRKit.cmake, or a
# parent project's) and the compile settings that code using it needs.

# A parent project that embeds coop (add_subdirectory) brings its own MLIR;
# otherwise use the pip-installed kit.
if(NOT MLIR_FOUND)
  include(CoopMLIRKit)
endif()
if(NOT LLVM_PACKAGE_VERSION VERSION_EQUAL 22.1.8)
  message(FATAL_ERROR "coop builds against MLIR 22.1.8; found ${LLVM_PACKAGE_VERSION} at ${MLIR_DIR}")
endif()

list(APPEND CMAKE_MODULE_PATH "${MLIR_CMAKE_DIR}" "${LLVM_CMAKE_DIR}")
include(TableGen)
include(AddLLVM)
include(AddMLIR)

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
