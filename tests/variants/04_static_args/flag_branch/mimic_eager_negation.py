"""Values right, idea skipped: a jitted identity, then the sign is applied eagerly outside the program."""

import jax


@jax.jit
def _same(x):
    return x


def apply_sign(x, neg):
    return -_same(x) if neg else _same(x)
