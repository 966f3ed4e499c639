// convert-coop-to-gpu lowers the guarded load into scf.if branches, then
// fails at the barrier; rolling the conversion back crashed when the ops in
// those branches were made without the rewriter seeing them.
func.func @rollback_after_guarded_load(%src: memref<?xi32>, %n: index, %x: i32)
    attributes {gpu.known_block_size = array<i32: 1024, 1, 1>} {
  %b = coop.this_block
  %items = memref.alloca() : memref<2xi32>
  coop.load %b, %src into %items valid_items = %n oob_default = %x : i32 : !coop.group<block>, memref<?xi32>, memref<2xi32>
  %p = coop.group_by %b : !coop.group<block> -> !coop.group<warps_within_block, 1>
  coop.barrier %p : !coop.group<warps_within_block, 1>
  return
}
