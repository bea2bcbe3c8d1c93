"""Multi-process JAX: every host runs the same program and owns some devices.

On a cluster one Python process runs per host. `jax.distributed.initialize`
joins them: process 0 hosts a coordinator at an address all can reach, and
each process says how many processes there are and which one it is. After
that `jax.devices()` lists every device of the cluster, while
`jax.local_devices()` lists only the ones this process drives; arrays can be
placed only on local devices. Without initialize, each process is a lone JAX
that sees just its own devices and thinks it is process 0 of 1.
Docs: https://docs.jax.dev/en/latest/multi_process.html

Task (fill-in): the check starts two processes, each calling
`describe_process(coordinator, num_processes, process_id)`. Join the cluster,
then return a dict with "process_index" and "process_count" (as JAX reports
them) and "local_devices" and "global_devices" (lists of device ids, `d.id`).
Do not use JAX before initialize: it must come first.
"""

import jax


def describe_process(coordinator: str, num_processes: int, process_id: int) -> dict:
    raise NotImplementedError("TODO: call jax.distributed.initialize(...), then report what this process sees")
