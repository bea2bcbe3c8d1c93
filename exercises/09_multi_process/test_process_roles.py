"""Checks for multiproc-1 (process_roles): two real JAX processes on this machine."""

import pytest

from grader import checks

pytestmark = pytest.mark.slow  # starts two extra Python processes (one launch shared by the checks)

N_PROCESSES = 2
# Not 8 // 2: an answer that assumes the 8 devices of these exercises shows itself.
DEVICES_PER_PROCESS = 3
KEYS = {"process_index", "process_count", "local_devices", "global_devices"}


def reports(exercise) -> list[tuple[dict, dict]]:
    """Each process's dict and what JAX itself said there afterwards, in process order (one launch)."""
    getattr(exercise, "describe_process")  # a missing function fails here, readably, before any launch
    found = checks.run_in_processes(
        exercise.module.__file__, "describe_process", n_processes=N_PROCESSES,
        devices_per_process=DEVICES_PER_PROCESS, what="describe_process(...)", observed=True)
    for i, (report, _) in enumerate(found):
        if not isinstance(report, dict) or not KEYS <= set(report):
            checks.fail(f"describe_process(...) in process {i} returned {report!r}; expected a dict "
                        f"with the keys {sorted(KEYS)}.", "wrong-shape")
    return found


def test_each_process_knows_its_index_and_the_count(exercise):
    for i, (report, seen) in enumerate(reports(exercise)):
        if seen["process_count"] != N_PROCESSES:
            checks.fail(
                f"after describe_process returned in process {i} of {N_PROCESSES}, JAX itself says this "
                f"is process {seen['process_index']} of {seen['process_count']}: the processes never "
                f"joined, whatever the dict says (it reported process_count={report['process_count']!r}). "
                f"Only jax.distributed.initialize, given the coordinator address, the number of processes "
                f"and this process's id, and called before anything else touches JAX, makes them one "
                f"cluster. See {checks.MULTI_PROCESS_DOCS}",
                "multi-process")
        if report["process_count"] != seen["process_count"] or report["process_index"] != seen["process_index"]:
            checks.fail(
                f"process {i} reported process_index={report['process_index']!r}, process_count="
                f"{report['process_count']!r}; JAX says {seen['process_index']} of {seen['process_count']}. "
                f"Report what jax.process_index() and jax.process_count() say once the cluster is "
                f"joined, not the arguments. See {checks.MULTI_PROCESS_DOCS}", "multi-process")


def test_local_devices_split_the_global_devices(exercise):
    found = reports(exercise)
    for i, (report, seen) in enumerate(found):
        if seen["device_count"] != N_PROCESSES * DEVICES_PER_PROCESS:
            checks.fail(
                f"in process {i} JAX sees {seen['device_count']} devices after describe_process returned; "
                f"the cluster has {N_PROCESSES * DEVICES_PER_PROCESS} ({DEVICES_PER_PROCESS} per process). "
                f"Without jax.distributed.initialize each process is a lone JAX that sees only its own "
                f"devices. See {checks.MULTI_PROCESS_DOCS}", "multi-process")
        ids = {key: [getattr(d, "id", d) for d in report[key]] for key in ("global_devices", "local_devices")}
        if sorted(ids["global_devices"]) != sorted(seen["devices"]):
            checks.fail(
                f"process {i} reports global devices {ids['global_devices']}; JAX there lists "
                f"{seen['devices']} ({len(seen['devices'])} devices, {DEVICES_PER_PROCESS} per process). "
                f"jax.devices() spans the whole cluster once jax.distributed.initialize has joined the "
                f"processes; ids worked out by hand (or for another device count) do not match the real "
                f"ones. See {checks.MULTI_PROCESS_DOCS}", "multi-process")
        if sorted(ids["local_devices"]) != sorted(seen["local_devices"]):
            checks.fail(
                f"process {i} says it owns devices {ids['local_devices']}; the devices it drives are "
                f"{seen['local_devices']}. jax.devices() is every device in the cluster; "
                f"jax.local_devices() (or the devices whose d.process_index is yours) are the ones this "
                f"process drives and can put data on. See {checks.MULTI_PROCESS_DOCS}", "multi-process")
