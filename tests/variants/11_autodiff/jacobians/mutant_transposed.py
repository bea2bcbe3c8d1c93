"""Wrong: transposes the Jacobians (inputs x outputs); JAX's convention is outputs x inputs."""

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
    return jax.jacfwd(expand)(x).T


def jacobian_of_summarize(x):
    return jax.jacrev(summarize)(x).T


def hessian_of_energy(x):
    return jax.hessian(energy)(x)
