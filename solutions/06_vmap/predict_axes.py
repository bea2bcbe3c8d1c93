"""Reference solution for vmap-7: each vmap adds its examples' axis where out_axes puts it; nested vmaps add theirs outside in."""

import jax
import jax.numpy as jnp


def score(x, w):
    return jnp.tanh(x @ w)


# Shapes only (jax.eval_shape traces with these, computing nothing):
x = jax.ShapeDtypeStruct((5, 3), jnp.float32)  # five examples in rows
x_columns = jax.ShapeDtypeStruct((3, 5), jnp.float32)  # five examples in columns
w = jax.ShapeDtypeStruct((3, 4), jnp.float32)
ws = jax.ShapeDtypeStruct((2, 3, 4), jnp.float32)  # two sets of weights
x_row = jax.ShapeDtypeStruct((3,), jnp.float32)  # one example

# Each call: a mapped function and the arguments it gets.
CALLS = {
    "A": (jax.vmap(score, in_axes=(0, None)), (x, w)),
    "B": (jax.vmap(score, in_axes=(1, None), out_axes=1), (x_columns, w)),
    "C": (jax.vmap(score, in_axes=(None, 0)), (x_row, ws)),
    "D": (jax.vmap(jax.vmap(score, in_axes=(0, None)), in_axes=(None, 0)), (x, ws)),
    "E": (jax.vmap(jax.vmap(score, in_axes=(0, None)), in_axes=(None, 0), out_axes=1), (x, ws)),
}


# Your predictions, worked out:
SHAPE_A = (5, 4)  # five examples in front
SHAPE_B = (4, 5)  # the examples' axis put second by out_axes=1
SHAPE_C = (2, 4)  # mapped over the weight sets, x shared
SHAPE_D = (2, 5, 4)  # the outer vmap (weight sets) outside the inner one (examples)
SHAPE_E = (5, 2, 4)  # the outer vmap's axis put second
