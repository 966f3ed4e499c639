// A payload of 2^32 items per thread verified, and the lowering unrolled it
// item by item: it ran until memory ran out.
func.func @huge_payload(%src: memref<?xi32>, %items: memref<4294967296xi32>)
    attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
  %b = coop.this_block
  coop.load %b, %src into %items : !coop.group<block>, memref<?xi32>, memref<4294967296xi32>
  return
}
