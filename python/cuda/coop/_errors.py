"""The error of a cuda.coop call that no backend can compile as written."""


class CoopCompileError(Exception):
    """A cuda.coop call that cannot be compiled as written."""
