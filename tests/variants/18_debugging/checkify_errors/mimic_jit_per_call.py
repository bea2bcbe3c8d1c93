"""Values right, compile skipped: a new jax.jit(checkify(f)) on every call retraces and recompiles f each time."""

import jax
from jax.experimental import checkify

ERRORS = checkify.index_checks | checkify.nan_checks | checkify.user_checks


def checked(f):
    def run(*args):
        err, out = jax.jit(checkify.checkify(f, errors=ERRORS))(*args)
        err.throw()
        return out

    return run
