"""A traced number cannot set a shape: make it static, or keep shapes fixed.

Every array in a compiled program has a shape fixed at trace time. Under jit
an integer argument `n` is a tracer, so `jnp.arange(n)` or `rewards[:n]`
would need to know `n` to build the program: ConcretizationTypeError. Two
ways out: mark `n` static (`static_argnames="n"` or `static_argnums=1`; `n`
is then a Python int at trace time, and each new value compiles its own
program), or restructure so no shape depends on `n` (work on the whole
array and mask the entries past `n`: one program for every `n`).
Docs: https://docs.jax.dev/en/latest/jit-compilation.html
      https://docs.jax.dev/en/latest/errors.html#jax.errors.ConcretizationTypeError

Task (fix-it): `n_step_return(rewards, n)`, the discounted sum of the first
`n` rewards (sum over k < n of GAMMA**k * rewards[k]), fails under jit. Fix
it either way; keep it jitted, and keep the name and signature.
"""

import jax
import jax.numpy as jnp

GAMMA = 0.9


@jax.jit
def n_step_return(rewards: jnp.ndarray, n: int) -> jnp.ndarray:
    discounts = GAMMA ** jnp.arange(n)
    return jnp.sum(rewards[:n] * discounts)
