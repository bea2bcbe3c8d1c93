"""Checks for multiproc-2 (global_array): two real JAX processes build and reduce one array."""

import jax
import numpy as np
import pytest

from grader import checks

pytestmark = pytest.mark.slow  # starts two extra Python processes (one launch shared by the checks)

N_PROCESSES = 2


def local_count() -> int:
    return max(1, jax.device_count() // N_PROCESSES)


def reports(exercise) -> list[dict]:
    """Each process's report from `run`, in process order (one launch for all checks)."""
    for name in ("to_global_array", "global_total", "run"):
        getattr(exercise, name)  # a missing function fails here, readably, before any launch
    return checks.run_in_processes(
        exercise.module.__file__, "run", n_processes=N_PROCESSES,
        devices_per_process=local_count(), what="run(...)")


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
            extra = (" That is this process's own rows only: the sum never left the process. Reduce "
                     "the global array with a jitted jnp.sum, which runs on every device of the "
                     "cluster, rather than the shards this process can see."
                     if isinstance(total, (int, float)) and np.isclose(total, own, rtol=1e-6) else "")
            checks.fail(f"process {i} computed global_total = {total!r}; expected {want:g}, the sum "
                        f"of every process's rows.{extra} See {checks.MULTI_PROCESS_DOCS}")


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
                f"jax.make_array_from_process_local_data(NamedSharding(mesh, P('data')), local) "
                f"joins every process's rows; jax.device_put / jnp.asarray see only the local "
                f"piece and treat it as the whole. See {checks.MULTI_PROCESS_DOCS}")


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
                f"process's rows on its own devices, in process order. See {checks.MULTI_PROCESS_DOCS}")
        for device, start, n, total in report["shards"]:
            want = float(rows[start:start + n].sum())
            if not np.isclose(total, want, rtol=1e-6):
                checks.fail(f"device {device} (process {i}) holds rows {start}..{start + n - 1} "
                            f"summing to {total:g}; those rows of the global array sum to "
                            f"{want:g}: the data landed in the wrong place.")
