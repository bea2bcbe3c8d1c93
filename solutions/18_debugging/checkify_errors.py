"""Reference solution for debug-1: checkify inside jit, the error raised outside it."""

import jax
from jax.experimental import checkify

ERRORS = checkify.index_checks | checkify.nan_checks | checkify.user_checks


def checked(f):
    # Built once per f: every call with the same shapes reuses one compiled program.
    compiled = jax.jit(checkify.checkify(f, errors=ERRORS))

    def run(*args):
        err, out = compiled(*args)
        err.throw()  # outside jit: raises JaxRuntimeError if a check failed
        return out

    return run
