"""Right, differently: the two modes by hand: vmap a JVP over input directions, a VJP over output ones."""

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
    push = lambda direction: jax.jvp(expand, (x,), (direction,))[1]
    return jax.vmap(push, out_axes=1)(jnp.eye(x.size, dtype=x.dtype))


def jacobian_of_summarize(x):
    _, pull = jax.vjp(summarize, x)
    return jax.vmap(lambda direction: pull(direction)[0])(jnp.eye(3, dtype=x.dtype))


@jax.jit
def hessian_of_energy(x):
    return jax.jacrev(jax.jacfwd(energy))(x)
