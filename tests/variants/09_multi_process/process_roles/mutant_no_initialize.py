"""Wrong: without jax.distributed.initialize each process is a lone JAX: process 0 of 1, its own devices only."""

import jax


def describe_process(coordinator, num_processes, process_id):
    return {
        "process_index": jax.process_index(),
        "process_count": jax.process_count(),
        "local_devices": [d.id for d in jax.local_devices()],
        "global_devices": [d.id for d in jax.devices()],
    }
