// RUN: coop-opt %s -split-input-file --coop-plan-scratch --coop-insert-barriers --convert-coop-to-gpu --cse | FileCheck %s

// BlockReduce warp_reductions: the thread folds its items, each warp
// reduces by butterfly shuffles, lane 0 publishes the warp's aggregate, and
// after one barrier every thread folds the two aggregates (broadcast). The
// warp and lane numbers are 32-bit, as CUB's unsigned ints. Lane 0's store
// is one predicated st.shared to an address computed outside any branch
// (in a branch inside a kernel's loop NVVM rematerializes the buffer's
// address every iteration).
// CHECK-LABEL: gpu.func @block_reduce
// CHECK: %[[T:.*]] = arith.addf
// CHECK: %[[VIEW:.*]] = memref.view {{.*}} to memref<2xf32, #gpu.address_space<workgroup>>
// CHECK: %[[TID:.*]] = arith.index_castui %thread_id_x : index to i32
// CHECK: %[[W:.*]] = arith.divui %[[TID]], %c32_i32 : i32
// CHECK: %[[L:.*]] = arith.remui %[[TID]], %c32_i32 : i32
// CHECK-COUNT-5: nvvm.shfl.sync  bfly %c-1_i32
// CHECK: %[[A:.*]] = arith.addf
// CHECK: %[[SLOT:.*]] = arith.index_cast %[[W]] : i32 to index
// CHECK: %[[LANE0:.*]] = arith.cmpi eq, %[[L]], %c0_i32 : i32
// CHECK-NOT: scf.if
// CHECK: %[[BASE:.*]] = memref.extract_aligned_pointer_as_index %[[VIEW]]
// CHECK: %[[AT:.*]] = arith.muli %[[SLOT]],
// CHECK: %[[ADDRESS:.*]] = arith.index_castui
// CHECK: %[[BITS:.*]] = arith.bitcast %[[A]] : f32 to i32
// CHECK: %[[P:.*]] = arith.extui %[[LANE0]] : i1 to i32
// CHECK: llvm.inline_asm has_side_effects "{ .reg .pred p; setp.ne.b32 p, $2, 0; @p st.shared.b32 [$0], $1; }", "l,r,r,~{memory}" %[[ADDRESS]], %[[BITS]], %[[P]]
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: %[[X:.*]] = memref.load %[[VIEW]][%c0]
// CHECK-NEXT: %[[Y:.*]] = memref.load %[[VIEW]][%c1]
// CHECK-NEXT: arith.addf %[[X]], %[[Y]]
// CHECK-NOT: gpu.barrier
gpu.module @block_reduce {
  gpu.func @block_reduce(%in: memref<2xf32>, %dst: memref<1xf32>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %b = coop.this_block
    %r = coop.reduce %b, %in op = sum broadcast : !coop.group<block>, memref<2xf32> -> f32
    %c0 = arith.constant 0 : index
    memref.store %r, %dst[%c0] : memref<1xf32>
    gpu.return
  }
}

// -----

// The predicated store by width: 8- and 16-bit items from a 32-bit register
// (PTX stores narrow items from wider registers), 64-bit from a 64-bit one.
// CHECK-LABEL: gpu.func @block_reduce_store_widths
// CHECK: llvm.inline_asm has_side_effects "{ .reg .pred p; setp.ne.b32 p, $2, 0; @p st.shared.b8 [$0], $1; }", "l,r,r,~{memory}" %{{.*}} : (i64, i32, i32) -> ()
// CHECK: llvm.inline_asm has_side_effects "{ .reg .pred p; setp.ne.b32 p, $2, 0; @p st.shared.b16 [$0], $1; }", "l,r,r,~{memory}" %{{.*}} : (i64, i32, i32) -> ()
// CHECK: llvm.inline_asm has_side_effects "{ .reg .pred p; setp.ne.b32 p, $2, 0; @p st.shared.b64 [$0], $1; }", "l,l,r,~{memory}" %{{.*}} : (i64, i64, i32) -> ()
gpu.module @block_reduce_store_widths {
  gpu.func @block_reduce_store_widths(%a: memref<2xi8>, %h: memref<2xf16>, %d: memref<2xf64>,
                                      %out8: memref<1xi8>, %out16: memref<1xf16>, %out64: memref<1xf64>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %b = coop.this_block
    %c0 = arith.constant 0 : index
    %r8 = coop.reduce %b, %a op = sum : !coop.group<block>, memref<2xi8> -> i8
    memref.store %r8, %out8[%c0] : memref<1xi8>
    %r16 = coop.reduce %b, %h op = sum : !coop.group<block>, memref<2xf16> -> f16
    memref.store %r16, %out16[%c0] : memref<1xf16>
    %r64 = coop.reduce %b, %d op = sum : !coop.group<block>, memref<2xf64> -> f64
    memref.store %r64, %out64[%c0] : memref<1xf64>
    gpu.return
  }
}

// -----

// Floats' max and min are cuda::maximum's and cuda::minimum's fmax and fmin
// (a NaN operand yields the other): one max.f32 each, not a compare and a
// select in a row.
// CHECK-LABEL: gpu.func @warp_max_and_min_of_floats
// CHECK-COUNT-5: arith.maxnumf
// CHECK-NOT: arith.cmpf
// CHECK-COUNT-5: arith.minnumf
// CHECK-NOT: arith.cmpf
gpu.module @warp_max_and_min_of_floats {
  gpu.func @warp_max_and_min_of_floats(%x: f32, %dst: memref<2xf32>) kernel
      attributes {known_block_size = array<i32: 32, 1, 1>} {
    %w = coop.this_warp
    %hi = coop.reduce %w, %x op = max : !coop.group<warp>, f32 -> f32
    %lo = coop.reduce %w, %x op = min : !coop.group<warp>, f32 -> f32
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    memref.store %hi, %dst[%c0] : memref<2xf32>
    memref.store %lo, %dst[%c1] : memref<2xf32>
    gpu.return
  }
}

// -----

// WarpReduce of logical warps of 8 lanes with a function operator: three
// down-shuffle steps (WarpReduceShfl's ReduceStep), each lane folding in the
// lane `offset` above it, so the operator need not commute and each group's
// first lane gets the aggregate; a lane past its group is left out. 64-bit
// items move as two 32-bit shuffles. Without broadcast, nothing more.
// CHECK-LABEL: gpu.func @warp_reduce_function
// CHECK: %[[R:.*]] = arith.remui %{{.*}}, %c8
// CHECK: %[[RANK:.*]] = arith.index_castui %[[R]] : index to i32
// CHECK: %[[LEFT:.*]] = arith.subi %c8_i32, %[[RANK]] : i32
// CHECK-COUNT-2: nvvm.shfl.sync  down %c-1_i32, %{{.*}}, %{{.*}}, %c31_i32 : i32 -> i32
// CHECK: %[[P:.*]] = arith.ori
// CHECK: %[[F:.*]] = func.call @first(%arg0, %[[P]])
// CHECK: %[[IN:.*]] = arith.cmpi sgt, %[[LEFT]], %c1_i32 : i32
// CHECK: arith.select %[[IN]], %[[F]], %arg0
// CHECK-COUNT-4: nvvm.shfl.sync  down
// CHECK-NOT: nvvm.shfl.sync
// CHECK: gpu.return
gpu.module @warp_reduce_function {
  func.func private @first(%a: i64, %b: i64) -> i64
  gpu.func @warp_reduce_function(%x: i64, %dst: memref<1xi64>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %w = coop.this_warp
    %l = coop.group_by %w : !coop.group<warp> -> !coop.group<threads_within_warp, 8>
    %r = coop.reduce %l, %x combiner = @first : !coop.group<threads_within_warp, 8>, i64 -> i64
    %c0 = arith.constant 0 : index
    memref.store %r, %dst[%c0] : memref<1xi64>
    gpu.return
  }
}

// -----

// A partial sum of a whole warp with broadcast: the first `valid` lanes only
// (down shuffles bounded by valid - rank in 32 bits, no butterflies, no
// redux.sync), then one idx shuffle from the group's first lane gives every
// lane the aggregate.
// CHECK-LABEL: gpu.func @warp_partial_sum
// CHECK: %[[VALID:.*]] = arith.index_castui %{{.*}} : index to i32
// CHECK: %[[RANK:.*]] = arith.index_castui %{{.*}} : index to i32
// CHECK: %[[LIMIT:.*]] = arith.minui %[[VALID]], %c32_i32 : i32
// CHECK: %[[LEFT:.*]] = arith.subi %[[LIMIT]], %[[RANK]] : i32
// CHECK-NOT: bfly
// CHECK-NOT: nvvm.redux.sync
// CHECK-COUNT-5: nvvm.shfl.sync  down
// CHECK: %[[LANE:.*]] = nvvm.read.ptx.sreg.laneid
// CHECK: %[[FIRST:.*]] = arith.andi %[[LANE]], %c-32_i32
// CHECK: nvvm.shfl.sync  idx %c-1_i32, %{{.*}}, %{{.*}}, %c31_i32
// CHECK-NOT: nvvm.shfl.sync
// CHECK: gpu.return
gpu.module @warp_partial_sum {
  gpu.func @warp_partial_sum(%x: i32, %n: index, %dst: memref<1xi32>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %w = coop.this_warp
    %r = coop.reduce %w, %x op = sum valid_items = %n broadcast : !coop.group<warp>, i32 -> i32
    %c0 = arith.constant 0 : index
    memref.store %r, %dst[%c0] : memref<1xi32>
    gpu.return
  }
}

// -----

// A partial tile by raking: the threads past the valid ones place the sum's
// exact identity (-0.0 for floats), and the raking threads fold whole
// segments and reduce whole warps without a guard. Float max has no exact
// identity (fmax passes over a NaN): its raking threads guard each slot.
// CHECK-LABEL: gpu.func @block_partial_raking_sum
// CHECK: %[[NEG0:.*]] = arith.constant -0.000000e+00 : f64
// CHECK-NEXT: %[[HAS:.*]] = arith.cmpi ult, %{{.*}}, %{{.*}} : i32
// CHECK-NEXT: %[[PLACED:.*]] = arith.select %[[HAS]], %{{.*}}, %[[NEG0]] : f64
// CHECK-NEXT: memref.store %[[PLACED]]
// CHECK-NEXT: gpu.barrier
// CHECK-NOT: arith.select
// CHECK: nvvm.shfl.sync  bfly
// CHECK-LABEL: gpu.func @block_partial_raking_max
// CHECK: gpu.barrier
// CHECK: scf.if
// CHECK: arith.cmpi sgt
// CHECK-NEXT: arith.select
gpu.module @block_partial_raking {
  gpu.func @block_partial_raking_sum(%in: memref<2xf64>, %n: index, %dst: memref<1xf64>) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %b = coop.this_block
    %r = coop.reduce %b, %in op = sum valid_items = %n algorithm = raking : !coop.group<block>, memref<2xf64> -> f64
    %c0 = arith.constant 0 : index
    memref.store %r, %dst[%c0] : memref<1xf64>
    gpu.return
  }
  gpu.func @block_partial_raking_max(%in: memref<2xf32>, %n: index, %dst: memref<1xf32>) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %b = coop.this_block
    %r = coop.reduce %b, %in op = max valid_items = %n algorithm = raking : !coop.group<block>, memref<2xf32> -> f32
    %c0 = arith.constant 0 : index
    memref.store %r, %dst[%c0] : memref<1xf32>
    gpu.return
  }
}
