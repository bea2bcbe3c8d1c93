"""Checks for multiproc-2 (global_array): two real JAX processes build and reduce one array."""

import numpy as np
import pytest

from grader import checks

pytestmark = pytest.mark.slow  # starts two extra Python processes (one launch shared by the checks)

N_PROCESSES = 2
# Not 8 // 2: an answer that assumes the 8 devices of these exercises shows itself.
DEVICES_PER_PROCESS = 3

# Run in each process before `run`: as on a real cluster, a process can load its own rows only. An
# answer that rebuilds every process's rows itself (and so holds the whole batch) stops here.
OWN_ROWS_ONLY = """
_load = module.local_rows

def _own_rows_only(wanted, n_local_devices):
    if wanted != process_id:
        raise PermissionError(
            f"process {process_id} asked for process {wanted}'s rows. On a cluster each process loads "
            f"only its own rows and no process ever holds the whole batch: build the global array from "
            f"the local rows every process contributes (jax.make_array_from_process_local_data), "
            f"not from data this process recreates")
    return _load(wanted, n_local_devices)

module.local_rows = _own_rows_only
"""


def local_count() -> int:
    return DEVICES_PER_PROCESS


def reports(exercise) -> list[dict]:
    """Each process's report from `run`, in process order (one launch for all checks)."""
    for name in ("to_global_array", "global_total", "run"):
        getattr(exercise, name)  # a missing function fails here, readably, before any launch
    return checks.run_in_processes(
        exercise.module.__file__, "run", n_processes=N_PROCESSES, devices_per_process=DEVICES_PER_PROCESS,
        what="run(...)", prelude=OWN_ROWS_ONLY)


def all_rows(exercise) -> np.ndarray:
    """The global array the processes should build: every process's rows, in process order."""
    return np.concatenate([np.asarray(exercise.local_rows(p, local_count()))
                           for p in range(N_PROCESSES)])


def test_every_process_gets_the_total_of_all_rows(exercise):
    found = reports(exercise)
    want = float(all_rows(exercise).sum())
    for i, report in enumerate(found):
        own = float(np.asarray(exercise.local_rows(i, local_count())).sum())
        total = report["total"]
        if not isinstance(total, (int, float)) or not np.isclose(total, want, rtol=1e-6):
            only_own = isinstance(total, (int, float)) and np.isclose(total, own, rtol=1e-6)
            extra = (" That is this process's own rows only: the sum never left the process. A jitted "
                     "reduction of the global array runs on every device of the cluster; the shards "
                     "this process can see are only its part." if only_own else "")
            checks.fail(f"process {i} computed global_total = {total!r}; expected {want:g}, the sum "
                        f"of every process's rows.{extra} See {checks.MULTI_PROCESS_DOCS}",
                        "multi-process" if only_own else "wrong-values")


def test_global_array_spans_every_process(exercise):
    found = reports(exercise)
    rows = all_rows(exercise)
    n_global = N_PROCESSES * local_count()
    for i, report in enumerate(found):
        if report["global_shape"] != list(rows.shape) or len(report["devices"]) != n_global:
            checks.fail(
                f"in process {i} the array has shape {tuple(report['global_shape'])} on "
                f"{len(report['devices'])} device(s); expected one global array of shape "
                f"{rows.shape} on all {n_global} devices of the {N_PROCESSES} processes. "
                f"jax.device_put / jnp.asarray see only the local piece and treat it as the whole; "
                f"the global array has to be assembled from every process's rows. "
                f"See {checks.MULTI_PROCESS_DOCS}", "multi-process")


def test_each_process_keeps_its_own_rows(exercise):
    found = reports(exercise)
    rows = all_rows(exercise)
    per_process = rows.shape[0] // N_PROCESSES
    per_device = per_process // local_count()
    for i, report in enumerate(found):
        starts = sorted(start for _, start, _, _ in report["shards"])
        mine = list(range(i * per_process, (i + 1) * per_process, per_device))
        if starts != mine or any(n != per_device for _, _, n, _ in report["shards"]):
            checks.fail(
                f"process {i} holds shards starting at rows {starts} "
                f"({[n for _, _, n, _ in report['shards']]} rows each); expected its own rows "
                f"{i * per_process}..{(i + 1) * per_process - 1}, {per_device} per local device. "
                f"Sharding rows over 'data' with make_array_from_process_local_data keeps each "
                f"process's rows on its own devices, in process order. See {checks.MULTI_PROCESS_DOCS}",
                "wrong-sharding")
        for device, start, n, total in report["shards"]:
            want = float(rows[start:start + n].sum())
            if not np.isclose(total, want, rtol=1e-6):
                checks.fail(f"device {device} (process {i}) holds rows {start}..{start + n - 1} "
                            f"summing to {total:g}; those rows of the global array sum to "
                            f"{want:g}: the data landed in the wrong place.", "wrong-sharding")
