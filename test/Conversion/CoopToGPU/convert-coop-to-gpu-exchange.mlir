// RUN: coop-opt %s -split-input-file --coop-plan-scratch --coop-insert-barriers --convert-coop-to-gpu --cse | FileCheck %s

// BlockExchange: CUB's padded tile (512 + 16 slots), a guarded scatter at
// the ranks, one block barrier, striped gathers.
// CHECK-LABEL: gpu.func @exchange_guarded
// CHECK: memref.view %{{.*}} to memref<528xi32, #gpu.address_space<workgroup>>
// CHECK: %[[R0:.*]] = memref.load %arg2[%c0]
// CHECK: %[[S0:.*]] = arith.index_cast %[[R0]] : i32 to index
// CHECK: %[[P0:.*]] = arith.shrui %[[S0]], %c5
// CHECK: %[[SLOT0:.*]] = arith.addi %[[S0]], %[[P0]]
// CHECK: %[[OK:.*]] = arith.cmpi sge, %[[R0]], %c0_i32
// CHECK: scf.if %[[OK]] {
// CHECK-NEXT: memref.store %{{.*}}, %{{.*}}[%[[SLOT0]]]
// CHECK: gpu.barrier
// CHECK-NOT: gpu.barrier
// CHECK: gpu.return
gpu.module @exchange_guarded {
  gpu.func @exchange_guarded(%in: memref<8xi32>, %out: memref<8xi32>, %ranks: memref<8xi32>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %b = coop.this_block
    coop.exchange %b, %in into %out mode = scatter_to_striped_guarded ranks = %ranks : memref<8xi32> : !coop.group<block>, memref<8xi32>, memref<8xi32>
    gpu.return
  }
}

// -----

// WarpExchange of logical warps of 8: each group's region holds 8*2+1
// items; the group synchronizes its own lanes.
// CHECK-LABEL: gpu.func @exchange_logical_warps
// CHECK: memref.view %{{.*}} to memref<136xf64, #gpu.address_space<workgroup>>
// CHECK: %[[G:.*]] = arith.divui %{{.*}}, %c8
// CHECK: %[[REGION:.*]] = arith.muli %[[G]], %c17
// CHECK: memref.store
// CHECK: memref.store
// CHECK: %[[MASK:.*]] = arith.shli %c255_i32, %{{.*}} : i32
// CHECK: nvvm.bar.warp.sync %[[MASK]]
// CHECK-NOT: gpu.barrier
// CHECK: gpu.return
gpu.module @exchange_logical_warps {
  gpu.func @exchange_logical_warps(%in: memref<2xf64>, %out: memref<2xf64>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %w = coop.this_warp
    %l = coop.group_by %w : !coop.group<warp> -> !coop.group<threads_within_warp, 8>
    coop.exchange %l, %in into %out mode = striped_to_blocked : !coop.group<threads_within_warp, 8>, memref<2xf64>, memref<2xf64>
    gpu.return
  }
}

// -----

// WarpExchange's ScatterToStriped at 8 items a thread pads like CUB's: each
// logical warp of 8 holds 8*8+1 items plus (8*8+1) >> 5 = 2 padding slots
// (67), and pads positions within its own region: rank + rank / 32 on the
// scatter, the striped slot i*8 + lane + (i*8 + lane) / 32 on the gather.
// CHECK-LABEL: gpu.func @warp_scatter_padding
// CHECK: memref.view %{{.*}} to memref<536xi32, #gpu.address_space<workgroup>>
// CHECK: %[[G:.*]] = arith.divui %{{.*}}, %c8
// CHECK: %[[LANE:.*]] = arith.remui %{{.*}}, %c8
// CHECK: %[[REGION:.*]] = arith.muli %[[G]], %c67
// CHECK: %[[RANK:.*]] = arith.index_cast %{{.*}} : i32 to index
// CHECK: %[[PAD:.*]] = arith.shrui %[[RANK]], %c5
// CHECK: %[[PADDED:.*]] = arith.addi %[[RANK]], %[[PAD]]
// CHECK: %[[SLOT:.*]] = arith.addi %[[REGION]], %[[PADDED]]
// CHECK: %[[LPAD:.*]] = arith.shrui %[[LANE]], %c5
// CHECK: %[[LPADDED:.*]] = arith.addi %[[LANE]], %[[LPAD]]
// CHECK: %[[GATHER:.*]] = arith.addi %[[REGION]], %[[LPADDED]]
// CHECK: memref.store %{{.*}}, %{{.*}}[%[[SLOT]]]
// CHECK: nvvm.bar.warp.sync
// CHECK: memref.load %{{.*}}[%[[GATHER]]]
// CHECK-NOT: gpu.barrier
// CHECK: gpu.return
gpu.module @warp_scatter_padding {
  gpu.func @warp_scatter_padding(%in: memref<8xi32>, %ranks: memref<8xi32>, %out: memref<8xi32>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %w = coop.this_warp
    %l = coop.group_by %w : !coop.group<warp> -> !coop.group<threads_within_warp, 8>
    coop.exchange %l, %in into %out mode = scatter_to_striped ranks = %ranks : memref<8xi32> : !coop.group<threads_within_warp, 8>, memref<8xi32>, memref<8xi32>
    gpu.return
  }
}

// -----

// Time-sliced striped-to-blocked: one warp's 32*4 items per turn, two
// block barriers per turn after the first (the reuse barrier is the
// planner's), warp s gathers in turn s. The turn is a warp vote on the
// 32-bit warp number, so that ptxas branches around the gather instead of
// predicating it in every warp. A strip of the striped input (64 positions)
// that lies wholly in a slice (128) is stored unguarded.
// CHECK-LABEL: gpu.func @exchange_timesliced
// CHECK: memref.view %{{.*}} to memref<128xi32, #gpu.address_space<workgroup>>
// CHECK-NOT: scf.if
// CHECK: memref.store %{{.*}}, %view[%thread_id_x]
// CHECK-NOT: scf.if
// CHECK: memref.store %{{.*}}, %view[%{{.*}}]
// CHECK-NOT: scf.if
// CHECK: gpu.barrier
// CHECK: %[[W:.*]] = arith.divui %{{.*}}, %c32_i32 : i32
// CHECK: %[[IS0:.*]] = arith.cmpi eq, %[[W]], %c0_i32 : i32
// CHECK: %[[TURN0:.*]] = nvvm.vote.sync  any %c-1_i32, %[[IS0]] -> i1
// CHECK: scf.if %[[TURN0]] -> (i32, i32, i32, i32) {
// CHECK-COUNT-4: memref.load %view
// CHECK: gpu.barrier
// CHECK: gpu.barrier
// CHECK: %[[IS1:.*]] = arith.cmpi eq, %[[W]], %c1_i32 : i32
// CHECK: %[[TURN1:.*]] = nvvm.vote.sync  any %c-1_i32, %[[IS1]] -> i1
// CHECK: scf.if %[[TURN1]] -> (i32, i32, i32, i32) {
// CHECK-NOT: gpu.barrier
// CHECK: gpu.return
gpu.module @exchange_timesliced {
  gpu.func @exchange_timesliced(%in: memref<4xi32>, %out: memref<4xi32>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %b = coop.this_block
    coop.exchange %b, %in into %out mode = striped_to_blocked warp_time_slicing : !coop.group<block>, memref<4xi32>, memref<4xi32>
    gpu.return
  }
}
