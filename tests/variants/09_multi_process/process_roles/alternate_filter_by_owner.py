"""Right, unusually: keyword-free initialize, and local devices found by each device's owning process."""

import jax


def describe_process(coordinator, num_processes, process_id):
    jax.distributed.initialize(coordinator, num_processes, process_id, initialization_timeout=30)
    me = jax.process_index()
    everything = jax.devices()
    return {
        "process_index": me,
        "process_count": jax.process_count(),
        "local_devices": [d for d in everything if d.process_index == me],  # devices, not ids
        "global_devices": tuple(d.id for d in everything),
    }
