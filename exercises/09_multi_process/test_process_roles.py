"""Checks for multiproc-1 (process_roles): two real JAX processes on this machine."""

import jax
import pytest

from grader import checks

pytestmark = pytest.mark.slow  # starts two extra Python processes (one launch shared by the checks)

N_PROCESSES = 2


def local_count() -> int:
    return max(1, jax.device_count() // N_PROCESSES)


def reports(exercise) -> list[dict]:
    """Each process's dict, in process order (the launch is shared by both checks)."""
    getattr(exercise, "describe_process")  # a missing function fails here, readably, before any launch
    found = checks.run_in_processes(
        exercise.module.__file__, "describe_process", n_processes=N_PROCESSES,
        devices_per_process=local_count(), what="describe_process(...)")
    for i, report in enumerate(found):
        keys = {"process_index", "process_count", "local_devices", "global_devices"}
        if not isinstance(report, dict) or not keys <= set(report):
            checks.fail(f"describe_process(...) in process {i} returned {report!r}; expected a dict "
                        f"with the keys {sorted(keys)}.")
    return found


def test_each_process_knows_its_index_and_the_count(exercise):
    for i, report in enumerate(reports(exercise)):
        if report["process_count"] != N_PROCESSES or report["process_index"] != i:
            checks.fail(
                f"process {i} of {N_PROCESSES} reported process_index={report['process_index']}, "
                f"process_count={report['process_count']}. JAX only knows about the other processes "
                f"after jax.distributed.initialize(coordinator_address, num_processes, process_id); "
                f"before that every process is a lone process 0 of 1. Call it first, with the values "
                f"you are given. See {checks.MULTI_PROCESS_DOCS}")


def test_local_devices_split_the_global_devices(exercise):
    found = reports(exercise)
    per = local_count()
    everyone = [sorted(r["global_devices"]) for r in found]
    if any(g != everyone[0] for g in everyone) or len(everyone[0]) != N_PROCESSES * per:
        checks.fail(
            f"the processes see these global devices: {everyone}; expected one list of "
            f"{N_PROCESSES * per} devices ({per} per process), the same in every process. "
            f"jax.devices() spans the whole cluster only once jax.distributed.initialize has joined "
            f"the processes. See {checks.MULTI_PROCESS_DOCS}")
    owned = [set(r["local_devices"]) for r in found]
    for i, mine in enumerate(owned):
        others = set().union(*(o for j, o in enumerate(owned) if j != i))
        if len(mine) != per or mine & others:
            checks.fail(
                f"process {i} says it owns devices {sorted(mine)}; expected its own {per} devices, "
                f"shared with no other process. jax.devices() is every device in the cluster; "
                f"jax.local_devices() (or the devices whose d.process_index is yours) are the ones "
                f"this process drives and can put data on. See {checks.MULTI_PROCESS_DOCS}")
    if set().union(*owned) != set(everyone[0]):
        checks.fail(f"the local devices {[sorted(o) for o in owned]} do not add up to the global "
                    f"devices {everyone[0]}: every device belongs to exactly one process.")
