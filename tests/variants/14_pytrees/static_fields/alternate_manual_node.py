"""Right, unusually: hand-written flatten/unflatten with register_pytree_with_keys_class, the activation as auxiliary data."""

import dataclasses

import jax
import jax.numpy as jnp
from jax.tree_util import GetAttrKey


@jax.tree_util.register_pytree_with_keys_class
@dataclasses.dataclass
class Layer:
    weight: jax.Array
    bias: jax.Array
    activation: str

    def tree_flatten_with_keys(self):
        return ((GetAttrKey("weight"), self.weight), (GetAttrKey("bias"), self.bias)), self.activation

    @classmethod
    def tree_unflatten(cls, activation, children):
        return cls(*children, activation)


@jax.jit
def apply(layer, x):
    y = x @ layer.weight + layer.bias
    return jax.nn.relu(y) if layer.activation == "relu" else jnp.tanh(y)
