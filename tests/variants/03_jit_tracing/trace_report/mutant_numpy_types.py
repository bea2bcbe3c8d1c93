"""Wrong: NumPy's view of the arguments (float64, int64), not what JAX traced with (float32, int32)."""

import jax
import numpy as np


def trace_report(f, *args):
    jax.make_jaxpr(f)(*args)
    return [jax.ShapeDtypeStruct(np.shape(a), np.result_type(a)) for a in args]
