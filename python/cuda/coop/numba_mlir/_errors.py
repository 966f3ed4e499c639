"""The backend's compile error."""


class CoopCompileError(Exception):
    """A cuda.coop call that cannot be compiled as written."""
