"""Values right, idea skipped: runs f on the real arrays first (executing every operation) before tracing it."""

import jax


def primitive_names(f, *args):
    f(*args)  # "make sure f works": computes everything eagerly, for nothing
    return [eqn.primitive.name for eqn in jax.make_jaxpr(f)(*args).eqns]
