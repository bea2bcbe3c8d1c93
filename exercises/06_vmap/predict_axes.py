"""Predict: where do vmap's axes go?

`jax.vmap(f, in_axes, out_axes)` runs f once per example. `in_axes` says, per
argument, which axis holds the examples (that axis is removed before f sees
the argument), or None for an argument every example shares. All mapped axes
must have the same length. `out_axes` says where the examples' axis goes in
the result (0, the front, by default). Nested vmaps map one axis each: the
outer vmap's axis ends up outside the inner one's.
Docs: https://docs.jax.dev/en/latest/_autosummary/jax.vmap.html

Task (predict): `score(x, w)` takes one example x of shape (3,) and weights w
of shape (3, 4), and returns shape (4,). Without running anything, write down
the shape each call below returns (jax.eval_shape(fn, *args) of its mapped
function and arguments), as a tuple of ints. The checks work
the shapes out with JAX and, where you were wrong, show what JAX did and why.
The checks read each prediction as a literal from this file's text; they
never import or run it.
"""

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


# Your predictions: replace each ... with a shape, a tuple of ints such as (7, 2) (no running first!)
SHAPE_A = ...
SHAPE_B = ...
SHAPE_C = ...
SHAPE_D = ...
SHAPE_E = ...
