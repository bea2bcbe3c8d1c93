"""Values right, tool skipped: checkify's nan_checks under jax.jit find the NaN (the tool the task
rules out), and a make_jaxpr trace of f with jax_debug_nans on stands in for the jitted call: a trace
for make_jaxpr runs nothing, so JAX never checks an output with the option on."""

import jax
from jax.experimental import checkify


def nan_origin(f, *args):
    with jax.debug_nans(True):
        jax.make_jaxpr(f)(*args)
    error, _ = jax.jit(checkify.checkify(f, errors=checkify.nan_checks))(*args)
    try:
        error.throw()
    except checkify.JaxRuntimeError as failure:
        return getattr(failure.__cause__, "prim", None) or str(failure).split()[-1].rstrip(".")
    return None
