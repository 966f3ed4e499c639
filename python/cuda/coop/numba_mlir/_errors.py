"""The backend's compile error and warnings."""


class CoopCompileError(Exception):
    """A cuda.coop call that cannot be compiled as written."""


class CoopCacheWarning(RuntimeWarning):
    """The kernel disk cache could not serve or keep a kernel: it is compiled."""
