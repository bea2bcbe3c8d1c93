"""jax.make_jaxpr: look at the program JAX traced.

A trace records every jax.numpy call as *primitives* (`sin`, `mul`,
`dot_general`, `reduce_sum`, ...) in a small typed program, the *jaxpr*: this
is what jit compiles, what grad differentiates and what vmap batches.
`jax.make_jaxpr(f)(*args)` traces `f` (without compiling) and returns it;
print it to read it. Its `.eqns` are the equations in program order, and each
equation's `.primitive.name` says which operation it is.
Docs: https://docs.jax.dev/en/latest/jaxpr.html

Task (fill-in): write `primitive_names(f, *args)`: the names (strings) of the
primitives in the traced program of `f(*args)`, in program order, one per
equation (a primitive used twice appears twice).
"""

import jax


def primitive_names(f, *args) -> list[str]:
    raise NotImplementedError("TODO: trace f with jax.make_jaxpr and list each equation's primitive name")
