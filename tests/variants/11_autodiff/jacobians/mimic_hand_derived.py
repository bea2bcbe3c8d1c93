"""Values right, tool wrong: the three derivatives worked out by hand (tanh' times A, the diagonal plus
ones Hessian); no autodiff mode is ever chosen, and a change to the functions would leave them behind."""

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
    return (1 - jnp.tanh(A @ x) ** 2)[:, None] * A


def jacobian_of_summarize(x):
    return A.T * (1 - jnp.tanh(x) ** 2)[None, :]


def hessian_of_energy(x):
    return jnp.diag(3 * x**2) + jnp.ones((x.size, x.size), x.dtype)
