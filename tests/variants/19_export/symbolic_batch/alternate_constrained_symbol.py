"""Right, unusually: a differently named symbol with an explicit (harmless) constraint, and jit applied as a decorator-style call."""

from functools import partial

import jax
import jax.numpy as jnp
from jax import export


def export_batched(f, features):
    rows = export.symbolic_shape(f"rows, {features}", constraints=("rows >= 1",))
    return export.export(partial(jax.jit, inline=True)(f))(jax.ShapeDtypeStruct(rows, jnp.float32))
