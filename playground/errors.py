"""Errors the back-end raises: each carries one sentence a student can act on."""


class PlaygroundError(ValueError):
    """Base class: the fit or the input cannot go ahead; ``str(err)`` says why."""


class InvalidDataError(PlaygroundError):
    """The points themselves are unusable (wrong shape, NaN, too few classes...)."""


class DegenerateFitError(PlaygroundError):
    """The data are valid but the method has no well-defined answer on them."""


class ConvergenceError(PlaygroundError):
    """An iterative method cannot produce a usable solution (e.g. hard margin on overlap)."""
