"""Dataclasses as pytrees: data fields are traced, static fields pick the program.

jit, grad and vmap accept arrays and *pytrees*: containers JAX can flatten
into a list of array leaves plus a structure (the treedef). Tuples, lists and
dicts are pytrees already; your own class must be registered, or jit rejects
it ("... of type <class 'Layer'> ... as an abstract array").
`@jax.tree_util.register_dataclass` registers a dataclass: its fields become
leaves, except those declared static with
`dataclasses.field(metadata=dict(static=True))` (or `jax.tree.static()`).
A static field lives in the treedef: it must be hashable, it is a plain
Python value while tracing (an `if` may read it), and a new value is a new
cache key, so jit compiles again; new leaf values reuse the program.
Docs: https://docs.jax.dev/en/latest/_autosummary/jax.tree_util.register_dataclass.html
      https://docs.jax.dev/en/latest/pytrees.html

Task (fix-it): `apply(layer, x)` raises TypeError: jit cannot take a `Layer`.
Make Layer a pytree whose leaves are `weight` and `bias` (in that order) and
whose `activation` is static: new weights reuse the compiled program, a new
activation compiles a new one. Keep the class, its fields and apply's code.
"""

import dataclasses

import jax
import jax.numpy as jnp


@dataclasses.dataclass
class Layer:
    weight: jax.Array  # (d_in, d_out)
    bias: jax.Array  # (d_out,)
    activation: str  # "relu" or "tanh"


@jax.jit
def apply(layer: Layer, x: jax.Array) -> jax.Array:
    y = x @ layer.weight + layer.bias
    return jax.nn.relu(y) if layer.activation == "relu" else jnp.tanh(y)
