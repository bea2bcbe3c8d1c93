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

# Also run before `run`: what global_total was handed and gave back, and which programs it compiled.
# Each compiled program's StableHLO is dumped (a JAX setting) and summarised: whether it spans the
# cluster (mhlo.num_partitions), the shapes of its inputs and results, and which inputs are sharded.
# Every fact goes into `findings`, the launch's own dict, never into the report `run` returns.
WATCH_THE_TOTAL = """
import glob as _glob, os as _os, re as _re, shutil as _shutil, sys as _sys, tempfile as _tempfile
import jax as _jax
import numpy as _np
from jax._src.array import ArrayImpl as _ArrayImpl

# Inside the launch's scratch folder (the folder of the result file, argv[7]), removed with it.
_dump = _tempfile.mkdtemp(prefix="programs-", dir=_os.path.dirname(_sys.argv[7]) or None)
_jax.config.update("jax_dump_ir_to", _dump)
_jax.config.update("jax_dump_ir_modes", "stablehlo")
_jax.config.update("jax_include_debug_info_in_dumps", False)
_in_total = set()
findings["calls"] = []

def _tensors(text):
    found = []
    for match in _re.finditer(r"tensor<([^>]*)>", text):
        dims = [int(d) for d in match.group(1).split("x")[:-1] if d.isdigit()]
        tail = text[match.end():].split("tensor<", 1)[0]
        spec = _re.search(r"#sdy\\.sharding<@[^,]+, \\[(.*?)\\]", tail)
        found.append({"shape": dims, "sharded": bool(spec and '"' in spec.group(1)) or "devices=[" in tail})
    return found

def _program(path):
    text = open(path, encoding="utf-8").read()
    parts = _re.search(r"mhlo\\.num_partitions = (\\d+)", text)
    main = _re.search(r"func\\.func public @main\\((.*)", text)
    inputs, _, results = (main.group(1) if main else "").partition(") -> ")
    return {"name": _re.sub(r"^jax_ir\\d+_|_compile\\.mlir$", "", _os.path.basename(path)),
            "partitions": int(parts.group(1)) if parts else 1,
            "inputs": _tensors(inputs), "results": _tensors(results)}

def _array(x):
    # Read on the host (no program compiled): the global array as JAX holds it in this process.
    if type(x) is not _ArrayImpl:
        return None
    return {"shape": list(x.shape), "devices": sorted(d.id for d in x.sharding.device_set),
            "shards": [[s.device.id, s.index[0].start or 0, s.data.shape[0],
                        float(_np.asarray(s.data, dtype=_np.float64).sum())] for s in x.addressable_shards]}

def _number(value):
    if type(value) in (int, float) or type(value) in (_ArrayImpl, _np.ndarray, _np.float32, _np.float64) \\
            and _np.size(value) == 1:
        return float(_np.asarray(value))
    return None

_total = module.global_total

def _watched_total(x):
    call = {"array": _array(x), "total": None}
    findings["calls"].append(call)
    before = set(_glob.glob(_os.path.join(_dump, "*.mlir")))
    try:
        result = _total(x)
        call["total"] = _number(result)
        return result
    finally:
        _in_total.update(set(_glob.glob(_os.path.join(_dump, "*.mlir"))) - before)

module.global_total = _watched_total
_run = module.run

def _run_and_watch(*args):
    try:
        return _run(*args)
    finally:
        findings["programs"] = [_program(path) for path in sorted(_in_total)]
        _jax.config.update("jax_dump_ir_to", "")
        _shutil.rmtree(_dump, ignore_errors=True)

module.run = _run_and_watch
"""


def local_count() -> int:
    return DEVICES_PER_PROCESS


def reports(exercise) -> list[dict]:
    """What each process's launch saw (not what `run` returned), in process order (one launch for all
    checks): `array` and `total`, global_total's last input and result, and `programs`, what it compiled."""
    for name in ("to_global_array", "global_total", "run"):
        getattr(exercise, name)  # a missing function fails here, readably, before any launch
    found = checks.run_in_processes(
        exercise.module.__file__, "run", n_processes=N_PROCESSES, devices_per_process=DEVICES_PER_PROCESS,
        what="run(...)", prelude=OWN_ROWS_ONLY + WATCH_THE_TOTAL, observed=True)
    seen = []
    for i, (report, observed) in enumerate(found):
        calls = observed["findings"]["calls"]
        if not calls or calls[-1]["array"] is None:
            checks.fail(f"in process {i}, run(...) never handed global_total a jax.Array (it "
                        f"{'handed it a ' + repr(calls[-1]) if calls else 'never called it'}): run builds "
                        f"the global array with to_global_array and sums it with global_total, and the "
                        f"check reads both where they meet. See {checks.MULTI_PROCESS_DOCS}", "multi-process")
        seen.append({**calls[-1]["array"], "total": calls[-1]["total"], "reported": report,
                     "_total_programs": observed["findings"].get("programs", [])})
    return seen


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
        reported = report["reported"].get("total") if isinstance(report["reported"], dict) else None
        if total is not None and not (isinstance(reported, (int, float))
                                      and np.isclose(reported, total, rtol=1e-6)):
            checks.fail(f"process {i}'s run(...) reported total {reported!r}, but global_total returned "
                        f"{total!r} there: report the total global_total computed.", "wrong-values")
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
        if report["shape"] != list(rows.shape) or len(report["devices"]) != n_global:
            checks.fail(
                f"in process {i} the array has shape {tuple(report['shape'])} on "
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



def _describe(programs: list[dict]) -> str:
    if not programs:
        return "no program at all"
    return "; ".join(f"{p['name']} on {p['partitions']} device(s), taking "
                     f"{', '.join(str(tuple(i['shape'])) for i in p['inputs']) or 'nothing'}"
                     for p in programs[:4]) + ("; ..." if len(programs) > 4 else "")


def test_the_total_is_one_program_over_the_global_array(exercise):
    found = reports(exercise)
    rows = all_rows(exercise)
    shape, size, n_global = list(rows.shape), rows.size, N_PROCESSES * local_count()
    for i, report in enumerate(found):
        programs = report["_total_programs"]
        over_global = [p for p in programs if p["partitions"] == n_global
                       and any(t["shape"] == shape and t["sharded"] for t in p["inputs"])]
        if any(any(int(np.prod(r["shape"])) < size for r in p["results"]) for p in over_global):
            continue  # a program over the sharded global array reduced it on every device
        gathers = [p["name"] for p in over_global if any(r["shape"] == shape for r in p["results"])]
        if gathers:
            checks.fail(
                f"in process {i}, global_total gathered the whole {tuple(shape)} array before "
                f"summing it: its program {gathers[0]} takes the sharded global array and hands all "
                f"of it back to every process (what process_allgather or resharding to a replicated "
                f"layout does), so one process then holds every row and the sum is done on that copy. "
                f"On a cluster that is the batch no process should hold: the reduction itself should "
                f"be the program over the sharded global array, each device adding its own rows and "
                f"only partial sums crossing between processes. See {checks.MULTI_PROCESS_DOCS}",
                "host-transfer")
        checks.fail(
            f"in process {i}, global_total never ran one program over the whole global array: while "
            f"it ran it compiled {_describe(programs)}, and none takes the {tuple(shape)} array "
            f"sharded over all {n_global} devices of the cluster. Summing shards one by one, or "
            f"adding per-process partial sums on the host, works around the global array instead of "
            f"using it: jitted code on the global array runs on every device of the cluster at once. "
            f"See {checks.MULTI_PROCESS_DOCS}", "not-distributed")
