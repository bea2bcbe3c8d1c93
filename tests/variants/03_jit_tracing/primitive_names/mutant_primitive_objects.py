"""Wrong: returns the Primitive objects, not their names (strings)."""

import jax


def primitive_names(f, *args):
    return [eqn.primitive for eqn in jax.make_jaxpr(f)(*args).eqns]
