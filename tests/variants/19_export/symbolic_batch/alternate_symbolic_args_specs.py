"""Right, unusually: jax.export.symbolic_args_specs turns an example spec into a symbolic one ("_" keeps a dimension)."""

import jax
import numpy as np


def export_batched(f, features):
    example = jax.ShapeDtypeStruct((1, features), np.float32)
    return jax.export.export(jax.jit(f))(jax.export.symbolic_args_specs(example, "batch, _"))
