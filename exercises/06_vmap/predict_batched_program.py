"""Predict: what does vmap turn a function into?

vmap does not loop over the examples: it traces the function once, with
batched abstract values, and rewrites each operation into its batched form (a
matmul of one example becomes one matmul of the whole batch). Control flow is
rewritten too. A `lax.cond` whose predicate is the same for every example
stays a cond: the batch takes one branch. When the predicate differs per
example, no single branch fits the batch, so vmap computes both branches for
every example and picks each example's result with `select_n` (what
jnp.where compiles to).
Docs: https://docs.jax.dev/en/latest/automatic-vectorization.html

Task (predict): without running anything, write down how many times step's
Python body runs while jax.make_jaxpr traces the vmapped step over 100
examples, and which primitive chooses between sine and cosine in each of the
two batched programs. The checks trace them and, where you were wrong, show
what JAX did and why.
The checks read each prediction as a literal from this file's text; they
never import or run it.
"""

import jax
import jax.numpy as jnp
from jax import lax

RUNS = []  # one entry per run of step's Python body


def step(x, w):
    RUNS.append(1)
    return lax.cond(x.sum() > 0, lambda v: jnp.sin(v @ w), lambda v: jnp.cos(v @ w), x)


def step_shared(x, w, use_sine):
    return lax.cond(use_sine, lambda v: jnp.sin(v @ w), lambda v: jnp.cos(v @ w), x)


xs = jax.ShapeDtypeStruct((100, 3), jnp.float32)  # 100 examples (shapes only: tracing computes nothing)
w = jax.ShapeDtypeStruct((3, 4), jnp.float32)
use_sine = jax.ShapeDtypeStruct((), jnp.bool_)

PER_EXAMPLE = lambda: jax.make_jaxpr(jax.vmap(step, in_axes=(0, None)))(xs, w)
SHARED = lambda: jax.make_jaxpr(jax.vmap(step_shared, in_axes=(0, None, None)))(xs, w, use_sine)


# Your predictions: replace each ... with a literal (no tracing first!)
PYTHON_RUNS = ...  # how many times PER_EXAMPLE() runs step's Python body: a Python int
# the primitive's name as the jaxpr prints it (not the function that records it), e.g. "add":
CHOOSER_PER_EXAMPLE = ...  # the primitive in PER_EXAMPLE()'s program that picks sine or cosine
CHOOSER_SHARED = ...  # the same for SHARED()'s program
