"""Predict: which collective does XLA put in a sharded program?

Under jit, an array's sharding travels into the program, and XLA's
partitioner turns each operation into per-device work plus whatever
communication the result needs. Work that stays within each device's block
needs none. A reduction across the split dimension needs the devices'
partial results added: an `all-reduce`. Shifting rows across block edges
sends each device's edge rows to its neighbour: a `collective-permute`.
Re-splitting rows into columns swaps pieces between every pair of devices: an
`all-to-all`. Giving every device the whole array gathers the blocks: an
`all-gather`. (compiled.as_text() shows the HLO; its ops carry these names.)
Docs: https://docs.jax.dev/en/latest/notebooks/Distributed_arrays_and_automatic_parallelization.html

Task (predict): x (16, 8) is split by rows over the 8 devices the checks give
JAX. Without compiling anything, write down, for each program below, the
collective its compiled HLO uses, or None if it needs none. The checks
compile them and, where you were wrong, show what XLA did and why.
The checks read each prediction as a literal from this file's text; they
never import or run it.
"""

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, NamedSharding, PartitionSpec as P


def rows_of(mesh):
    """x, split by rows over the mesh's 'data' axis."""
    return jax.device_put(np.arange(16 * 8, dtype=np.float32).reshape(16, 8), NamedSharding(mesh, P("data")))


def programs(mesh):
    return {
        "SUM_OVER_ROWS": jax.jit(lambda x: jnp.sum(x, axis=0)),
        "SUM_OVER_COLUMNS": jax.jit(lambda x: jnp.sum(x, axis=1)),
        "ROLL_ROWS": jax.jit(lambda x: jnp.roll(x, 1, axis=0)),
        "SCALE": jax.jit(lambda x: 2 * x),
        "TO_COLUMNS": jax.jit(lambda x: x, out_shardings=NamedSharding(mesh, P(None, "data"))),
        "TO_COPIES": jax.jit(lambda x: x, out_shardings=NamedSharding(mesh, P())),
    }


def compiled_text(name):
    """The HLO of one program (run this after predicting, to see for yourself)."""
    mesh = jax.make_mesh((jax.device_count(),), ("data",), axis_types=(AxisType.Auto,))
    return programs(mesh)[name].lower(rows_of(mesh)).compile().as_text()


# Your predictions: replace each ... with an HLO collective's name as a string ("all-reduce", "all-gather",
# "all-to-all", "collective-permute", "reduce-scatter"; the HLO's names, not jax.lax's psum or
# all_gather) or None (no compiling first!)
SUM_OVER_ROWS = ...
SUM_OVER_COLUMNS = ...
ROLL_ROWS = ...
SCALE = ...
TO_COLUMNS = ...
TO_COPIES = ...
