"""Auto axes: the compiler picks the layouts, with_sharding_constraint steers it.

Each mesh axis has a type. Explicit (jax.make_mesh's default in JAX 0.10):
the sharding is in the array's type and changes only where you say so.
Auto (`axis_types=(AxisType.Auto,)`, the classic mode): types carry no
sharding and XLA's partitioner picks every intermediate's layout. On Auto
axes, `lax.with_sharding_constraint(y, sharding)` inside jit pins one
intermediate's layout and the compiler plans around it; that is how you ask
for a different split half-way through a program. On Explicit axes it steers
nothing: a NamedSharding naming one is refused, and a bare spec under
jax.set_mesh only asserts the split y's type already has (there, jax.reshard
changes a layout).
Docs: https://docs.jax.dev/en/latest/notebooks/explicit-sharding.html

Task (fix-it): `standardize_columns(x)` gets `x` with its rows split over
`data_mesh()` and constrains it to a column split, so that after one
all-to-all each device computes its own columns' mean and std with no
further communication. It fails instead. Fix the mesh so the constraint can
steer the compiler; keep the constraint, the jit and both signatures.
"""

import jax
from jax import lax
from jax.sharding import AxisType, Mesh, NamedSharding, PartitionSpec as P


def data_mesh() -> Mesh:
    return jax.make_mesh((jax.device_count(),), ("data",))


@jax.jit
def standardize_columns(x: jax.Array) -> jax.Array:
    x = lax.with_sharding_constraint(x, NamedSharding(data_mesh(), P(None, "data")))
    return (x - x.mean(axis=0)) / x.std(axis=0)
