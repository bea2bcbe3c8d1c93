"""Pure functions: return new values, never change your inputs.

A function JAX transforms must be pure: its result depends only on its
arguments and it changes nothing the caller can see. Mutating an argument is
a trap twice over: without jit the caller's data changes under its feet, and
under jit the mutation happens to tracers and silently vanishes — the same
code behaves differently depending on whether it is compiled.
Docs: https://docs.jax.dev/en/latest/notebooks/Common_Gotchas_in_JAX.html#pure-functions

Task (fix-it): `sgd_update(params, grads, lr)` takes a dict of parameter
arrays and returns the updated dict `params[k] - lr * grads[k]`. It writes
into the caller's `params` dict, so calling it twice with the same inputs
gives two different answers. Make it pure: same inputs, same result, and the
caller's dict is left exactly as it was.
"""

import jax.numpy as jnp


def sgd_update(params: dict, grads: dict, lr: float) -> dict:
    for name in params:
        params[name] = params[name] - lr * grads[name]
    return params
