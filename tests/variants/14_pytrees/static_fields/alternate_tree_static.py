"""Right, unusually: the static field declared with jax.tree.static(), the shorthand for metadata=dict(static=True)."""

import dataclasses

import jax
import jax.numpy as jnp


@jax.tree_util.register_dataclass
@dataclasses.dataclass
class Layer:
    weight: jax.Array
    bias: jax.Array
    activation: str = jax.tree.static()


@jax.jit
def apply(layer, x):
    y = x @ layer.weight + layer.bias
    return jax.nn.relu(y) if layer.activation == "relu" else jnp.tanh(y)
