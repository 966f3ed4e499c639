// RUN: coop-opt %s -split-input-file -verify-diagnostics

func.func @scan_thread(%x: i32) {
  %b = coop.this_thread
  // expected-error @+1 {{needs a block, a warp or a logical warp}}
  %r = coop.scan %b, %x mode = inclusive op = sum : !coop.group<thread>, i32 -> i32
  return
}

// -----

func.func @scan_payload_no_output(%x: memref<4xi32>) {
  %b = coop.this_block
  // expected-error @+1 {{scans a payload into an output payload ('into') of the input's type 'memref<4xi32>'}}
  coop.scan %b, %x mode = inclusive op = sum : !coop.group<block>, memref<4xi32>
  return
}

// -----

func.func @scan_scalar_into(%x: i32, %o: memref<1xi32>) {
  %b = coop.this_block
  // expected-error @+1 {{scans a scalar and returns it; remove 'into'}}
  coop.scan %b, %x into %o mode = inclusive op = sum : !coop.group<block>, i32, memref<1xi32>
  return
}

// -----

func.func @scan_result_count(%x: i32) {
  %b = coop.this_block
  // expected-error @+1 {{returns 2 value(s): the scanned scalar and the aggregate; got 1}}
  %r = coop.scan %b, %x mode = inclusive op = sum aggregate : !coop.group<block>, i32 -> i32
  return
}

// -----

func.func @scan_initial_type(%x: i32, %y: f32) {
  %b = coop.this_block
  // expected-error @+1 {{initial_value type 'f32' does not match the item type 'i32'}}
  %r = coop.scan %b, %x mode = exclusive op = sum initial_value = %y : f32 : !coop.group<block>, i32 -> i32
  return
}

// -----

func.func @scan_prefix_on_warp(%x: i32, %state: memref<1xi32>) {
  %w = coop.this_warp
  // expected-error @+1 {{prefix is a block option: '!coop.group<warp>' scans by shuffles}}
  %r = coop.scan %w, %x mode = exclusive op = sum prefix = @f(%state : memref<1xi32>) : !coop.group<warp>, i32 -> i32
  return
}

// -----

func.func @scan_prefix_and_initial_value(%x: i32, %y: i32, %state: memref<1xi32>) {
  %b = coop.this_block
  // expected-error @+1 {{prefix and initial_value both seed the scan; pass one}}
  %r = coop.scan %b, %x mode = exclusive op = sum initial_value = %y : i32 prefix = @f(%state : memref<1xi32>) : !coop.group<block>, i32 -> i32
  return
}

// -----

func.func private @wrong_prefix(%state: memref<1xi32>, %aggregate: i64) -> i64

func.func @scan_prefix_type(%x: i32, %state: memref<1xi32>) {
  %b = coop.this_block
  // expected-error @+1 {{prefix function @wrong_prefix must take the state and the tile's aggregate and return the prefix '(memref<1xi32>, i32) -> i32'; it is '(memref<1xi32>, i64) -> i64'}}
  %r = coop.scan %b, %x mode = exclusive op = sum prefix = @wrong_prefix(%state : memref<1xi32>) : !coop.group<block>, i32 -> i32
  return
}

// -----

func.func @scan_prefix_state_without_function(%x: i32, %state: memref<1xi32>) {
  %b = coop.this_block
  // expected-error @+1 {{a prefix state needs its function: prefix = @f(%state : type)}}
  %r = "coop.scan"(%b, %x, %state) <{mode = #coop<scan_mode exclusive>, kind = #coop<binary_op sum>, operandSegmentSizes = array<i32: 1, 1, 0, 0, 0, 1, 0>}> : (!coop.group<block>, i32, memref<1xi32>) -> i32
  return
}

// -----

func.func private @stateful_prefix(%state: memref<1xi32>, %aggregate: i32) -> i32

func.func @scan_stateless_prefix_type(%x: i32) {
  %b = coop.this_block
  // expected-error @+1 {{prefix function @stateful_prefix must take the tile's aggregate and return the prefix '(i32) -> i32'; it is '(memref<1xi32>, i32) -> i32'}}
  %r = coop.scan %b, %x mode = exclusive op = sum prefix = @stateful_prefix : !coop.group<block>, i32 -> i32
  return
}

// -----

func.func @scan_valid_items_on_block(%x: i32, %n: index) {
  %b = coop.this_block
  // expected-error @+1 {{valid_items on a scan is a warp option (CUB's partial warp scans); a block scans whole tiles: pad a partial tile with the operator's identity (load's oob_default)}}
  %r = coop.scan %b, %x mode = inclusive op = sum valid_items = %n : !coop.group<block>, i32 -> i32
  return
}
