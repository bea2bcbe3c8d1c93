"""Reference solution for grad-6: jacfwd for tall, jacrev for wide, forward-over-reverse Hessian."""

import jax
import jax.numpy as jnp
import numpy as np

A = jnp.asarray(np.cos(np.arange(600.0)).reshape(200, 3), dtype=jnp.float32)


def expand(x):  # R^3 -> R^200
    return jnp.tanh(A @ x)


def summarize(x):  # R^200 -> R^3
    return A.T @ jnp.tanh(x)


def energy(x):  # R^n -> R
    return jnp.sum(x**4) / 4 + jnp.sum(x) ** 2 / 2


def jacobian_of_expand(x):
    return jax.jacfwd(expand)(x)  # 3 forward passes, not 200 backward ones


def jacobian_of_summarize(x):
    return jax.jacrev(summarize)(x)  # 3 backward passes, not 200 forward ones


def hessian_of_energy(x):
    return jax.jacfwd(jax.jacrev(energy))(x)
