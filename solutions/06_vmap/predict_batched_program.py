"""Reference solution for vmap-8: vmap traces once; a cond on a per-example predicate becomes both branches and a select_n."""

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


# Your predictions, worked out:
PYTHON_RUNS = 1  # vmap traces once, with the whole batch as one abstract value
CHOOSER_PER_EXAMPLE = "select_n"  # both branches computed for every example, then picked per example
CHOOSER_SHARED = "cond"  # one predicate for the whole batch: still one branch
