"""Wrong: right values, modes swapped: jacrev for the tall Jacobian, jacfwd for the wide one."""

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
    return jax.jacrev(expand)(x)


def jacobian_of_summarize(x):
    return jax.jacfwd(summarize)(x)


def hessian_of_energy(x):
    return jax.jacfwd(jax.jacrev(energy))(x)
