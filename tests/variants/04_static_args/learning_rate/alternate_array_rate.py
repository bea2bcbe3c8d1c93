"""Right, differently: a wrapper turns the rate into a float32 array before the jitted update."""

import jax
import jax.numpy as jnp


@jax.jit
def _update(params, grads, rate):
    return jax.tree.map(lambda p, g: p - rate * g, params, grads)


def sgd_step(params, grads, learning_rate):
    return _update(params, grads, jnp.float32(learning_rate))
