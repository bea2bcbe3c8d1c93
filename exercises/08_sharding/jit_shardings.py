"""jit with in_shardings / out_shardings: say how data enters and leaves.

`jax.jit(f, in_shardings=..., out_shardings=...)` fixes the layout of the
compiled program's inputs and outputs. Inputs are split as asked on the way
in (a NumPy argument is sharded for you), and the output comes back in the
layout you name even when it differs from the input's: XLA inserts the
communication (here an all-to-all) inside the program.
Without them, what you get depends on the mesh's axis types. This mesh comes
from `jax.make_mesh`, whose axes are Explicit by default: a sharded array's
layout is part of its type (`jax.typeof(x)` shows `float32[16@data,8]`) and
each operation's result layout follows from its inputs' by fixed rules, so
rows in means rows out. (With `AxisType.Auto` axes the compiler instead
chooses the layouts you leave open, by propagation.) In both modes a NumPy
argument has no layout yet: without in_shardings the compiler picks one.
Docs: https://docs.jax.dev/en/latest/sharded-computation.html
      https://docs.jax.dev/en/latest/notebooks/explicit-sharding.html

Task (fill-in): `make_centering(mesh)` returns a jitted `center_columns`
(subtract each column's mean) that takes its input split by rows over the
mesh's "data" axis and returns its result split by columns over "data" (the
next stage works per feature). Keep the names.
"""

import jax
import jax.numpy as jnp
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P


def center_columns(x: jax.Array) -> jax.Array:
    return x - jnp.mean(x, axis=0)


def make_centering(mesh: Mesh):
    raise NotImplementedError("TODO: jax.jit(center_columns, in_shardings=..., out_shardings=...)")
