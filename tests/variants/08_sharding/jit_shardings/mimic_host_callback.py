"""Values right, work wrong: jax.jit with the right in_shardings and out_shardings, but the centering
itself is NumPy on the host through jax.pure_callback, so every device's rows are gathered to the host
and the layouts describe a program that computes nothing."""

import jax
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P


def _center_on_host(x):
    x = np.asarray(x)
    return (x - x.mean(axis=0)).astype(x.dtype)


def make_centering(mesh):
    def center_columns(x):
        return jax.pure_callback(_center_on_host, jax.ShapeDtypeStruct(x.shape, x.dtype), x)

    return jax.jit(center_columns, in_shardings=NamedSharding(mesh, P("data", None)),
                   out_shardings=NamedSharding(mesh, P(None, "data")))
