"""Computed, not predicted: a name bound to a call that runs jit on a list at import."""

import jax


def _raising():
    try:
        jax.jit(lambda x, cfg: x, static_argnames="cfg")(1.0, cfg=[1])
    except ValueError:
        return 8
    return None


_seen = _raising()
COMPILING_CALLS = {1, 3, 4, 6, 7}
RAISING_CALL = _seen
