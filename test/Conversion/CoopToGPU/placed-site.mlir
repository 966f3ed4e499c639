// RUN: coop-opt %s --convert-coop-to-gpu | FileCheck %s

// A host compiler plans a whole kernel and lowers each site function with its
// slice already placed (no coop-plan-scratch here). The site function takes
// its scratch from the kernel's buffer, named by coop.scratch_symbol (the
// global is made once, at the kernel's size).
// CHECK: memref.global "private" @__coop_scratch_kernel : memref<1024xi8, #gpu.address_space<workgroup>>
// CHECK-NOT: memref.global
// CHECK: func.func @placed_site
// CHECK-NOT: memref.global
// CHECK: memref.get_global @__coop_scratch_kernel
// CHECK-NOT: coop.scratch_symbol
module {
  func.func @placed_site(%in: memref<2xi32>, %out: memref<2xi32>)
      attributes {gpu.known_block_size = array<i32: 64, 1, 1>, coop.scratch_size = 1024 : i64,
                  coop.scratch_alignment = 16 : i64, coop.scratch_symbol = "__coop_scratch_kernel"} {
    %b = coop.this_block
    coop.exchange %b, %in into %out mode = blocked_to_striped {coop.scratch_offset = 512 : i64} : !coop.group<block>, memref<2xi32>, memref<2xi32>
    return
  }
}
