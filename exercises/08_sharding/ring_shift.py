"""A ring shift: devices pass their blocks to a neighbour.

Inside `jax.shard_map`, `lax.ppermute(block, "data", perm)` sends data between
devices: `perm` is a list of (source, destination) pairs of positions along
the axis. With `(i, (i + 1) % n)` for every i, each device hands its block to
the next and the last wraps around to the first: a ring, the building block
of ring all-reduce and pipelined model parallelism. Only neighbours talk, so
no device ever holds the whole array (gathering it all with `all_gather`
gives the same answer but moves every block to every device).
Docs: https://docs.jax.dev/en/latest/notebooks/shard_map.html

Task (fill-in): `ring_shift(x, mesh)` takes `x` split by rows over "data" and
moves device i's block to device i + 1 (the last to the first), so the result
equals `np.roll(x, block_rows, axis=0)`, still split over "data". Write the
per-device step yourself: `jax.shard_map` with `lax.ppermute` (a roll of the
global array would leave the moving to the compiler). Keep the signature.
"""

import jax
from jax import lax
from jax.sharding import Mesh, PartitionSpec as P


def ring_shift(x: jax.Array, mesh: Mesh) -> jax.Array:
    raise NotImplementedError("TODO: shard_map + lax.ppermute with pairs (i, (i + 1) % n)")
