// A gpu.barrier at a gpu.module's top level reached LLVM IR translation in
// coop-lower-to-ptx, which crashed (no function to put the call in).
gpu.module @m {
  gpu.barrier
  gpu.func @f() kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    gpu.return
  }
}
