"""Wrong: raises the error inside the jitted function, where nothing can raise."""

import jax
from jax.experimental import checkify

ERRORS = checkify.index_checks | checkify.nan_checks | checkify.user_checks


def checked(f):
    @jax.jit
    def run(*args):
        err, out = checkify.checkify(f, errors=ERRORS)(*args)
        err.throw()  # staged by jit: a check with no checkify around it
        return out

    return run
