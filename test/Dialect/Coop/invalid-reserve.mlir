// RUN: coop-opt %s -split-input-file -verify-diagnostics

// Reserved arrays: a static 1-D workgroup memref of `count` items.

func.func @reserve_wrong_count() {
  %ts = coop.temp_storage
  // expected-error @+1 {{result must be memref<8xT, #gpu.address_space<workgroup>> of an integer or float item type T; got 'memref<4xi32, #gpu.address_space<workgroup>>'}}
  %a = coop.reserve %ts count = 8 : memref<4xi32, #gpu.address_space<workgroup>>
  return
}

// -----

func.func @reserve_not_shared() {
  %ts = coop.temp_storage
  // expected-error @+1 {{result must be memref<4xT, #gpu.address_space<workgroup>>}}
  %a = coop.reserve %ts count = 4 : memref<4xi32>
  return
}

// -----

func.func @reserve_alignment() {
  %ts = coop.temp_storage
  // expected-error @+1 {{alignment must be a power of two of at least the item's 8 bytes; got 4}}
  %a = coop.reserve %ts count = 4 alignment = 4 : memref<4xf64, #gpu.address_space<workgroup>>
  return
}

// -----

func.func @reserve_count() {
  %ts = coop.temp_storage
  // expected-error @+1 {{attribute 'count' failed to satisfy constraint}}
  %a = coop.reserve %ts count = 0 : memref<0xi32, #gpu.address_space<workgroup>>
  return
}
