"""Checks for vmap-7 (predict_axes): the shapes worked out here, on this file's own copy of the program."""

import jax
import jax.numpy as jnp

from grader import checks

DOCS = f"See {checks.DOCS}/_autosummary/jax.vmap.html"


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


# Why each call has its shape.
WHY = {
    "A": "in_axes=(0, None) maps x's rows (5 examples) with w shared; each gives (4,), stacked in front",
    "B": "in_axes=1 takes x_columns' 5 columns as the examples; out_axes=1 puts that axis second, after (4,)'s "
         "axis 0",
    "C": "x_row is shared and ws is mapped on its first axis: 2 weight sets, each giving (4,)",
    "D": "the inner vmap maps the 5 examples: (5, 4) per weight set; the outer one maps the 2 weight sets and "
         "puts its axis in front",
    "E": "the inner vmap gives (5, 4) per weight set; the outer one's out_axes=1 puts the weight-set axis second",
}


def test_mapped_shapes(predictions):
    with checks.judging(predictions) as judge:
        guesses = {letter: judge.guess(f"SHAPE_{letter}", what=f"the shape of call {letter}") for letter in CALLS}
        for letter, (fn, args) in CALLS.items():
            actual = tuple(jax.eval_shape(fn, *args).shape)
            judge.compare(guesses[letter], actual, name=f"SHAPE_{letter}", form=checks.forms.SHAPE,
                          what=f"the shape call {letter} returns", why=f"{WHY[letter]}. {DOCS}")
