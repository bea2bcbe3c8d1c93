"""Reference solution for jit-3: read the equations of the jaxpr."""

import jax


def primitive_names(f, *args) -> list[str]:
    closed = jax.make_jaxpr(f)(*args)  # a ClosedJaxpr: .eqns in program order
    return [eqn.primitive.name for eqn in closed.eqns]
