"""Wrong: tracing jax.jit(f) records one `jit` call whose body is nested, so the names are just ['jit']."""

import jax


def primitive_names(f, *args):
    return [eqn.primitive.name for eqn in jax.make_jaxpr(jax.jit(f))(*args).eqns]
