"""Wrong mode, out of sight: each Jacobian is built row by row (or column by column) in a Python
loop, one pass per output of expand (200 backward passes) and one per input of summarize (200
forward passes), where the cheap mode needs 3; no single array is big, the work is."""

import jax
import jax.numpy as jnp
import numpy as np

A = jnp.asarray(np.cos(np.arange(600.0)).reshape(200, 3), dtype=jnp.float32)


def expand(x):
    return jnp.tanh(A @ x)


def summarize(x):
    return A.T @ jnp.tanh(x)


def energy(x):
    return jnp.sum(x**4) / 4 + jnp.sum(x) ** 2 / 2


def hessian_of_energy(x):
    return jax.jacfwd(jax.jacrev(energy))(x)


def jacobian_of_expand(x):
    _, pull = jax.vjp(expand, x)
    return jnp.stack([pull(jax.nn.one_hot(i, 200, dtype=x.dtype))[0] for i in range(200)])


def jacobian_of_summarize(x):
    push = lambda i: jax.jvp(summarize, (x,), (jax.nn.one_hot(i, x.size, dtype=x.dtype),))[1]
    return jnp.stack([push(i) for i in range(x.size)], axis=1)
