"""Wrong: echoes its arguments as its identity without joining, so JAX still sees only its own devices."""

import jax


def describe_process(coordinator, num_processes, process_id):
    return {
        "process_index": process_id,
        "process_count": num_processes,
        "local_devices": [d.id for d in jax.local_devices()],
        "global_devices": [d.id for d in jax.devices()],
    }
