// RUN: coop-opt %s -split-input-file --convert-coop-to-gpu -verify-diagnostics

gpu.module @m {
  gpu.func @unplanned(%src: memref<?xi32>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %b = coop.this_block
    %items = memref.alloca() : memref<2xi32>
    // expected-error @+1 {{has no scratch slice: run --coop-plan-scratch before --convert-coop-to-gpu}}
    coop.load %b, %src into %items algorithm = transpose : !coop.group<block>, memref<?xi32>, memref<2xi32>
    gpu.return
  }
}

// -----

func.func @unknown_block(%src: memref<?xi32>) {
  %b = coop.this_block
  %items = memref.alloca() : memref<2xi32>
  // expected-error @+1 {{needs the block size, which is a launch fact}}
  coop.load %b, %src into %items : !coop.group<block>, memref<?xi32>, memref<2xi32>
  return
}

// -----

func.func @too_many_named_barriers() attributes {gpu.known_block_size = array<i32: 1024, 1, 1>} {
  %b = coop.this_block
  %p = coop.group_by %b : !coop.group<block> -> !coop.group<warps_within_block, 1>
  // expected-error @+1 {{needs 32 named barriers but a block has 15 (besides barrier 0); use groups of at least 3 warps}}
  coop.barrier %p : !coop.group<warps_within_block, 1>
  return
}

// -----

func.func @scratch_argument_type(%src: memref<?xi32>, %scratch: memref<?xi32> {coop.scratch})
    attributes {gpu.known_block_size = array<i32: 64, 1, 1>, coop.scratch_size = 512 : i64,
                coop.scratch_alignment = 16 : i64} {
  %b = coop.this_block
  %items = memref.alloca() : memref<2xi32>
  // expected-error @+1 {{takes its scratch from argument 1, which must be a memref<?xi8, #gpu.address_space<workgroup>>; got 'memref<?xi32>'}}
  coop.load %b, %src into %items algorithm = transpose {coop.scratch_offset = 0 : i64} : !coop.group<block>, memref<?xi32>, memref<2xi32>
  return
}

// -----

// The guarded load is lowered into scf.if branches before the barrier fails:
// rolling the conversion back must undo the ops in those branches too.
func.func @rollback_after_guarded_load(%src: memref<?xi32>, %n: index, %x: i32)
    attributes {gpu.known_block_size = array<i32: 1024, 1, 1>} {
  %b = coop.this_block
  %items = memref.alloca() : memref<2xi32>
  coop.load %b, %src into %items valid_items = %n oob_default = %x : i32 : !coop.group<block>, memref<?xi32>, memref<2xi32>
  %p = coop.group_by %b : !coop.group<block> -> !coop.group<warps_within_block, 1>
  // expected-error @+1 {{needs 32 named barriers but a block has 15}}
  coop.barrier %p : !coop.group<warps_within_block, 1>
  return
}

// -----

func.func @forged_scratch_buffer_marker(%in: memref<2xi32>, %out: memref<2xi32>)
    attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
  %b = coop.this_block
  // expected-error @+1 {{carries 'coop.scratch_buffer', which only convert-coop-to-gpu sets (on the scratch buffer it makes); remove it}}
  coop.exchange %b, %in into %out mode = blocked_to_striped {coop.scratch_offset = 0 : i64, coop.scratch_buffer} : !coop.group<block>, memref<2xi32>, memref<2xi32>
  return
}

// -----

func.func @negative_scratch_size(%in: memref<2xi32>, %out: memref<2xi32>)
    attributes {gpu.known_block_size = array<i32: 64, 1, 1>, coop.scratch_size = -5 : i64,
                coop.scratch_alignment = 16 : i64} {
  %b = coop.this_block
  // expected-error @+1 {{has an invalid scratch plan: coop.scratch_size must be >= 0 and coop.scratch_alignment a positive power of two; got -5 and 16}}
  coop.exchange %b, %in into %out mode = blocked_to_striped {coop.scratch_offset = 0 : i64} : !coop.group<block>, memref<2xi32>, memref<2xi32>
  return
}

// -----

func.func @negative_scratch_offset(%in: memref<2xi32>, %out: memref<2xi32>)
    attributes {gpu.known_block_size = array<i32: 64, 1, 1>, coop.scratch_size = 1024 : i64,
                coop.scratch_alignment = 16 : i64} {
  %b = coop.this_block
  // expected-error @+1 {{has a negative coop.scratch_offset: -8}}
  coop.exchange %b, %in into %out mode = blocked_to_striped {coop.scratch_offset = -8 : i64} : !coop.group<block>, memref<2xi32>, memref<2xi32>
  return
}
