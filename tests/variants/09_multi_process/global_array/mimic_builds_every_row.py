"""Mimic: each process recreates every process's rows and device_puts the whole batch: right shards and total, but every process held all the data."""

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P


def local_rows(process_id: int, n_local_devices: int) -> np.ndarray:
    """This process's rows: 2 per local device, 3 columns, different on every process."""
    n = 2 * n_local_devices
    start = process_id * n
    return np.arange(start * 3, (start + n) * 3, dtype=np.float32).reshape(n, 3) ** 2


def to_global_array(local: np.ndarray, mesh: jax.sharding.Mesh) -> jax.Array:
    # Ignores the local rows: recreates every process's rows here and device_puts the whole batch.
    every = np.concatenate([local_rows(p, jax.local_device_count()) for p in range(jax.process_count())])
    return jax.device_put(every, NamedSharding(mesh, P("data")))


@jax.jit
def _sum(x: jax.Array) -> jax.Array:
    return jnp.sum(x)


def global_total(x: jax.Array) -> float:
    # The jitted sum runs on every device of the cluster; its scalar result is
    # replicated, so every process can read it.
    return float(_sum(x))


def run(coordinator: str, num_processes: int, process_id: int) -> dict:
    jax.distributed.initialize(coordinator, num_processes, process_id)
    mesh = jax.make_mesh((jax.device_count(),), ("data",))
    local = local_rows(process_id, jax.local_device_count())
    x = to_global_array(local, mesh)
    return {
        "global_shape": list(x.shape),
        "devices": sorted(d.id for d in x.sharding.device_set),
        "shards": [[s.device.id, s.index[0].start or 0, s.data.shape[0], float(s.data.sum())]
                   for s in x.addressable_shards],
        "total": global_total(x),
    }
