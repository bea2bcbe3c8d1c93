"""Wrong: right values by making the whole (identity-hashed) Layer static: its weights become constants, so every new Layer recompiles."""

import dataclasses
from functools import partial

import jax
import jax.numpy as jnp


@dataclasses.dataclass(eq=False)  # hashed by identity, so jit accepts it as static
class Layer:
    weight: jax.Array
    bias: jax.Array
    activation: str


@partial(jax.jit, static_argnums=0)
def apply(layer, x):
    y = x @ layer.weight + layer.bias
    return jax.nn.relu(y) if layer.activation == "relu" else jnp.tanh(y)
