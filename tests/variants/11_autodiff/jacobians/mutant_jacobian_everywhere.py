"""Wrong: jax.jacobian (reverse mode) for both: the tall Jacobian pulls back 200 directions instead of pushing 3."""

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


def jacobian_of_expand(x):
    return jax.jacobian(expand)(x)


def jacobian_of_summarize(x):
    return jax.jacobian(summarize)(x)


def hessian_of_energy(x):
    return jax.hessian(energy)(x)
