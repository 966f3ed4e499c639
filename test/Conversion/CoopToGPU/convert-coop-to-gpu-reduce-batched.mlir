// RUN: coop-opt %s -split-input-file --convert-coop-to-gpu --cse | FileCheck %s

// Four batches over logical warps of 4 lanes, striped: at distance 2 the
// lanes whose bit 2 is set (of %laneid, in 32 bits) keep batches 2 and 3 and send 0 and 1 (two
// selects and one butterfly shuffle a pair), then at distance 1 the lanes
// whose bit 1 is set keep the odd batch: 3 shuffles in all, lane r ends with
// batch r. No scratch, no barrier.
// CHECK-LABEL: gpu.func @batched
// CHECK: %[[X0:.*]] = memref.load %arg0[%c0]
// CHECK: %[[X2:.*]] = memref.load %arg0[%c2]
// CHECK: %[[LANE:.*]] = nvvm.read.ptx.sreg.laneid : i32
// CHECK: %[[BIT:.*]] = arith.andi %[[LANE]], %c2_i32 : i32
// CHECK: %[[HI:.*]] = arith.cmpi ne, %[[BIT]], %c0_i32 : i32
// CHECK: %[[SEND:.*]] = arith.select %[[HI]], %[[X0]], %[[X2]] : i32
// CHECK: %[[KEEP:.*]] = arith.select %[[HI]], %[[X2]], %[[X0]] : i32
// CHECK: %[[GOT:.*]] = nvvm.shfl.sync  bfly %{{.*}}, %[[SEND]]
// CHECK: arith.addi %[[KEEP]], %[[GOT]] : i32
// CHECK-COUNT-2: nvvm.shfl.sync  bfly
// CHECK-NOT: nvvm.shfl.sync
// CHECK-NOT: gpu.barrier
// CHECK: memref.store %{{.*}}, %arg1[%c0] : memref<1xi32>
gpu.module @batched {
  gpu.func @batched(%x: memref<4xi32>, %o: memref<1xi32>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %w = coop.this_warp
    %l = coop.group_by %w : !coop.group<warp> -> !coop.group<threads_within_warp, 4>
    coop.reduce_batched %l, %x into %o op = sum : !coop.group<threads_within_warp, 4>, memref<4xi32>, memref<1xi32>
    gpu.return
  }
}

// -----

// Blocked: lane r ends with batches 2r and 2r + 1 (eight batches over four
// lanes): 2 * 3 shuffles.
// CHECK-LABEL: gpu.func @blocked
// CHECK-COUNT-6: nvvm.shfl.sync  bfly
// CHECK-NOT: nvvm.shfl.sync
// CHECK: memref.store %{{.*}}, %arg1[%c0] : memref<2xf32>
// CHECK: memref.store %{{.*}}, %arg1[%c1] : memref<2xf32>
gpu.module @blocked {
  gpu.func @blocked(%x: memref<8xf32>, %o: memref<2xf32>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %w = coop.this_warp
    %l = coop.group_by %w : !coop.group<warp> -> !coop.group<threads_within_warp, 4>
    coop.reduce_batched %l, %x into %o op = max layout = blocked : !coop.group<threads_within_warp, 4>, memref<8xf32>, memref<2xf32>
    gpu.return
  }
}

// -----

// Fewer batches than lanes: two batches over 8 lanes. A pair of padding
// partials is not exchanged and a batch paired with padding takes one plain
// butterfly step: 2 shuffles at distance 4, 2 at distance 2, then the pair
// of real batches at distance 1 (two selects and a shuffle): 5 shuffles
// where exchanging the padding too takes 7.
// CHECK-LABEL: gpu.func @few_batches
// CHECK-COUNT-4: nvvm.shfl.sync  bfly
// CHECK-NOT: arith.select
// CHECK: arith.select
// CHECK: arith.select
// CHECK: nvvm.shfl.sync  bfly
// CHECK-NOT: nvvm.shfl.sync
gpu.module @few_batches {
  gpu.func @few_batches(%x: memref<2xi32>, %o: memref<1xi32>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %w = coop.this_warp
    %l = coop.group_by %w : !coop.group<warp> -> !coop.group<threads_within_warp, 8>
    coop.reduce_batched %l, %x into %o op = sum : !coop.group<threads_within_warp, 8>, memref<2xi32>, memref<1xi32>
    gpu.return
  }
}
