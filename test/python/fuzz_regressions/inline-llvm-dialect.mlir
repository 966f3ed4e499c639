// The C API loads every dialect it registers, and the inliner asks each for
// the inliner interface it promises: llvm's and func's are extensions that
// were not registered, so any input aborted under --inline.
llvm.func @callee() {
  llvm.return
}
func.func @caller() {
  llvm.call @callee() : () -> ()
  return
}
