"""Computed, not predicted: traces the vmapped step at import and reads the top-level primitives."""

import jax
import jax.numpy as jnp
from jax import lax


def _step(x, w):
    return lax.cond(x.sum() > 0, lambda v: jnp.sin(v @ w), lambda v: jnp.cos(v @ w), x)


_top = [e.primitive.name for e in jax.make_jaxpr(jax.vmap(_step, in_axes=(0, None)))(
    jnp.ones((100, 3)), jnp.ones((3, 4))).eqns]
PYTHON_RUNS = 1
CHOOSER_PER_EXAMPLE = "select_n" if "select_n" in _top else "cond"
CHOOSER_SHARED = "cond"
