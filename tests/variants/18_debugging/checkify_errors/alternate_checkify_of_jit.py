"""Right, unusually: checkify around an already jitted f (it checks the jitted program), every check on, check_error to raise."""

import jax
from jax.experimental import checkify


def checked(f):
    checked_f = checkify.checkify(jax.jit(f), errors=checkify.all_checks)

    def run(*args):
        err, out = checked_f(*args)
        checkify.check_error(err)
        return out

    return run
