"""Reference solution for multiproc-1: join the cluster, then ask JAX who we are."""

import jax


def describe_process(coordinator: str, num_processes: int, process_id: int) -> dict:
    jax.distributed.initialize(coordinator_address=coordinator, num_processes=num_processes,
                               process_id=process_id)
    return {
        "process_index": jax.process_index(),
        "process_count": jax.process_count(),
        "local_devices": [d.id for d in jax.local_devices()],
        "global_devices": [d.id for d in jax.devices()],
    }
