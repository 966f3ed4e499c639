"""The backend's compile error and warnings."""

from .._errors import CoopCompileError  # noqa: F401 -- the backends' common error


class CoopCacheWarning(RuntimeWarning):
    """The kernel disk cache could not serve or keep a kernel: it is compiled."""
