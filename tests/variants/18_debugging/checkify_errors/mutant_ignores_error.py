"""Wrong: checks everything but never raises the error it gets back."""

import jax
from jax.experimental import checkify


def checked(f):
    compiled = jax.jit(checkify.checkify(f, errors=checkify.all_checks))

    def run(*args):
        _, out = compiled(*args)
        return out

    return run
