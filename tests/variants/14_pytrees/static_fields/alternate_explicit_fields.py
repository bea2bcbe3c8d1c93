"""Right, unusually: register_dataclass called as a function with explicit data_fields and meta_fields."""

import dataclasses

import jax
import jax.numpy as jnp


@dataclasses.dataclass(frozen=True)
class Layer:
    weight: jax.Array
    bias: jax.Array
    activation: str


jax.tree_util.register_dataclass(Layer, data_fields=["weight", "bias"], meta_fields=["activation"])


@jax.jit
def apply(layer, x):
    y = x @ layer.weight + layer.bias
    return jax.nn.relu(y) if layer.activation == "relu" else jnp.tanh(y)
