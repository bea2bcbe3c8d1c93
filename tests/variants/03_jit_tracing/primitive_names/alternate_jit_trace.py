"""Right, unusually: jax.jit(f).trace(*args) gives the traced program of f's body without compiling it."""

import jax


def primitive_names(f, *args):
    return [eqn.primitive.name for eqn in jax.jit(f).trace(*args).jaxpr.eqns]
