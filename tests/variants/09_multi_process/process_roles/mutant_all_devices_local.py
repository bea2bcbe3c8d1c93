"""Wrong: reports jax.devices() as its own, but a process drives only its local devices."""

import jax


def describe_process(coordinator, num_processes, process_id):
    jax.distributed.initialize(coordinator, num_processes, process_id)
    return {
        "process_index": jax.process_index(),
        "process_count": jax.process_count(),
        "local_devices": [d.id for d in jax.devices()],
        "global_devices": [d.id for d in jax.devices()],
    }
