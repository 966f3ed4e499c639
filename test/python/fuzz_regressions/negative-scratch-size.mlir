// A host compiler's scratch plan (placed sites) with a negative size reached
// MemRefType::get in convert-coop-to-gpu: an assertion.
func.func @negative_scratch_size(%in: memref<2xi32>, %out: memref<2xi32>)
    attributes {gpu.known_block_size = array<i32: 64, 1, 1>, coop.scratch_size = -5 : i64,
                coop.scratch_alignment = 16 : i64} {
  %b = coop.this_block
  coop.exchange %b, %in into %out mode = blocked_to_striped {coop.scratch_offset = 0 : i64} : !coop.group<block>, memref<2xi32>, memref<2xi32>
  return
}
