"""Assertion helpers for the katas' checks.

Each helper checks one JAX property and, when it fails, raises `KataFailure`
with a message that says what was expected, what happened, which JAX idea is
involved and the likely fix. Checks call these instead of bare `assert`s so a
learner never has to decode `assert 3 == 4`.
"""

from __future__ import annotations

import contextlib
import copy
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import chex
import jax
import jax.extend
import numpy as np

DOCS = "https://docs.jax.dev/en/latest"
COMPILE_EVENT = "/jax/core/compile/backend_compile_duration"


class KataFailure(AssertionError):
    """A check failed for a reason the message explains in JAX terms.

    The plugin shows only the message (no traceback into the helpers): the
    message is written for the learner.
    """


def fail(message: str) -> None:
    """Fail the current check with a teaching message."""
    __tracebackhide__ = True
    raise KataFailure(message)


# --- values -----------------------------------------------------------------


def _short(value: Any) -> str:
    if hasattr(value, "shape") and np.ndim(value) == 0:
        item = np.asarray(value).item()
        return f"{item:.6g}" if isinstance(item, float) else repr(item)
    text = np.array2string(np.asarray(value), precision=4, threshold=12, edgeitems=3) \
        if hasattr(value, "shape") else repr(value)
    text = " ".join(text.split())  # one line, so it fits pytest's summary and the grader's table
    return text if len(text) <= 200 else text[:197] + "..."


def assert_close(actual: Any, expected: Any, *, what: str, rtol: float = 1e-5,
                 atol: float = 1e-6, hint: str = "") -> None:
    """`actual` equals `expected` (a pytree) to a tolerance.

    Args:
      what: the call that produced `actual`, e.g. "running_sum(x)".
      hint: the likely cause when they differ, in JAX terms.
    Raises:
      KataFailure naming the call, both values and the hint.
    """
    __tracebackhide__ = True
    try:
        chex.assert_trees_all_equal_structs(actual, expected)
    except (AssertionError, ValueError, TypeError):
        fail(f"{what} returned {_structure(actual)}; expected {_structure(expected)}. {hint}".strip())
    got_leaves = jax.tree_util.tree_flatten_with_path(actual)[0]
    for (path, got), want in zip(got_leaves, jax.tree.leaves(expected)):
        where = f"{what}: {jax.tree_util.keystr(path)}" if path else what
        got_arr, want_arr = np.asarray(got), np.asarray(want)
        if got_arr.shape != want_arr.shape:
            fail(f"{where} has shape {got_arr.shape}; expected shape {want_arr.shape}. {hint}".strip())
        if not np.allclose(got_arr, want_arr, rtol=rtol, atol=atol, equal_nan=True):
            verb = "is" if path else "returned"
            fail(f"{where} {verb} {_short(got)}; expected {_short(want)}. {hint}".strip())


def _structure(tree: Any) -> str:
    leaves = jax.tree.leaves(tree)
    if len(leaves) == 1 and jax.tree.structure(tree).num_nodes == 1:
        return f"an array of shape {np.shape(leaves[0])}" if hasattr(leaves[0], "shape") else repr(tree)
    return f"a {type(tree).__name__} with structure {jax.tree.structure(tree)}"


def assert_shape_dtype(x: Any, shape: tuple[int, ...], dtype: Any, *, what: str, hint: str = "") -> None:
    """`x` is an array of exactly this shape and dtype."""
    __tracebackhide__ = True
    got_shape, got_dtype = getattr(x, "shape", None), getattr(x, "dtype", None)
    if got_shape != tuple(shape) or got_dtype != np.dtype(dtype):
        fail(f"{what} returned {got_dtype}{list(got_shape) if got_shape is not None else type(x).__name__}; "
             f"expected {np.dtype(dtype)}{list(shape)}. {hint}".strip())


# --- compiles ---------------------------------------------------------------


@dataclass
class CompileLog:
    """XLA compilations seen inside a `count_compiles` block."""

    name: str | None
    names: list[str] = field(default_factory=list)

    @property
    def count(self) -> int:
        return len(self.names)


def _matches(fun_name: str, wanted: str | None) -> bool:
    return wanted is None or fun_name in (wanted, f"jit({wanted})")


@contextlib.contextmanager
def count_compiles(name: str | None = None) -> Iterator[CompileLog]:
    """Count XLA backend compilations in the block.

    Args:
      name: only count programs of this Python function name (`"scale"`
        matches JAX's `jit(scale)`). Eager operations compile too (as
        `jit(multiply)`, ...), so build inputs before the block or filter.

    A persistent-cache hit still counts: JAX reports the compile event either
    way, so the count measures retracing, not cache temperature.
    """
    log = CompileLog(name)

    def listener(event: str, duration: float, **kwargs: Any) -> None:
        fun_name = str(kwargs.get("fun_name", ""))
        if event == COMPILE_EVENT and _matches(fun_name, name):
            log.names.append(fun_name)

    jax.monitoring.register_event_duration_secs_listener(listener)
    try:
        yield log
    finally:
        jax.monitoring.unregister_event_duration_listener(listener)


RECOMPILE_CAUSES = (
    "each compile means JAX traced again because something its cache keys on changed: "
    "an input shape or dtype, a Python int/float switching (weak types), the value of a "
    "static argument, or the function object itself (a new jax.jit/lambda per call)"
)


def assert_compiles(log: CompileLog, *, what: str, calls: int, expected: int | None = None,
                    at_most: int | None = None, why: str = "") -> None:
    """The block compiled exactly `expected` (or at most `at_most`) times.

    Args:
      log: from `count_compiles`.
      what: the function, e.g. "scale()".
      calls: how the calls in the block differed, e.g. "5 calls with the same shapes".
      why: the idea and the fix for this exercise; the generic causes are used otherwise.
    """
    __tracebackhide__ = True
    n = log.count
    if expected is not None and n == expected:
        return
    if at_most is not None and n <= at_most:
        return
    want = f"exactly {expected}" if expected is not None else f"at most {at_most}"
    times = "once" if n == 1 else f"{n} times"
    reason = why or RECOMPILE_CAUSES
    if n == 0 and (expected or 0) > 0:  # too few compiles has one cause, whatever the exercise
        reason = "nothing was compiled: is the function still wrapped in jax.jit?"
    fail(f"{what} compiled {times} for {calls}; expected {want}. {reason}. "
         f"See {DOCS}/jit-compilation.html")


def assert_jitted(fn: Callable, *args: Any, what: str, **kwargs: Any) -> None:
    """Calling `fn` dispatches one compiled program (a `jit`/`pmap` call), not op-by-op work."""
    __tracebackhide__ = True
    jaxpr = traced_jaxpr(fn, *args, what=what, **kwargs)
    top = {eqn.primitive.name for eqn in jaxpr.jaxpr.eqns}
    if not top & {"jit", "pjit", "xla_pmap", "shard_map"}:
        fail(f"{what} runs op by op (eagerly): it is not compiled as one program. "
             f"Wrap it in jax.jit (decorator or jax.jit(fn)). See {DOCS}/jit-compilation.html")


# --- jaxprs -----------------------------------------------------------------


def _all_eqns(jaxpr: Any) -> Iterator[Any]:
    jaxpr = getattr(jaxpr, "jaxpr", jaxpr)
    for eqn in jaxpr.eqns:
        yield eqn
        for sub in jax.extend.core.jaxprs_in_params(eqn.params):
            yield from _all_eqns(sub)


def traced_jaxpr(fn: Callable, *args: Any, what: str, **kwargs: Any) -> Any:
    """`jax.make_jaxpr` of fn(*args, **kwargs); a failure to trace becomes a lesson."""
    __tracebackhide__ = True
    try:
        return jax.make_jaxpr(lambda *a: fn(*a, **kwargs))(*args)
    except (jax.errors.ConcretizationTypeError, jax.errors.TracerBoolConversionError,
            jax.errors.TracerIntegerConversionError, jax.errors.TracerArrayConversionError) as error:
        fail(f"{what} cannot be traced with abstract inputs ({type(error).__name__}): it needs a "
             f"concrete value of an argument. Only shapes and dtypes are known while tracing; mark "
             f"such arguments static or use lax control flow. See {DOCS}/tracing.html")


def jaxpr_primitives(fn: Callable, *args: Any, what: str | None = None, **kwargs: Any) -> list[str]:
    """Primitive names of the traced program, nested jaxprs included, in order."""
    __tracebackhide__ = True
    closed = traced_jaxpr(fn, *args, what=what or getattr(fn, "__name__", "the function"), **kwargs)
    return [eqn.primitive.name for eqn in _all_eqns(closed)]


def jaxpr_size(fn: Callable, *args: Any, **kwargs: Any) -> int:
    """How many equations the traced program holds, nested jaxprs included."""
    return len(jaxpr_primitives(fn, *args, **kwargs))


def assert_not_unrolled(sizes: dict[int, int], *, what: str, hint: str = "") -> None:
    """The jaxpr has the same size whatever the trip count.

    Args:
      sizes: trip count -> jaxpr size, e.g. {10: 12, 1000: 12}.
    """
    __tracebackhide__ = True
    if len(set(sizes.values())) > 1:
        listed = ", ".join(f"{n} steps -> {s} equations" for n, s in sorted(sizes.items()))
        fail(f"{what}: the traced program grows with the number of steps ({listed}). A Python "
             f"loop over traced values is unrolled into the jaxpr; use lax.fori_loop, "
             f"lax.scan or lax.while_loop so it stays one loop. {hint} "
             f"See {DOCS}/control-flow.html".replace("  ", " "))


# --- purity and mutation ------------------------------------------------------


def _snapshot(value: Any) -> Any:
    return copy.deepcopy(jax.tree.map(lambda v: np.array(v) if isinstance(v, np.ndarray) else v, value))


def assert_not_mutated(fn: Callable, *args: Any, what: str, **kwargs: Any) -> Any:
    """Call `fn(*args, **kwargs)` and fail if it changed any argument in place.

    Returns what `fn` returned.
    """
    __tracebackhide__ = True
    before = [_snapshot(a) for a in args]
    before_kw = {k: _snapshot(v) for k, v in kwargs.items()}
    result = fn(*args, **kwargs)
    changed = [i for i, (a, b) in enumerate(zip(args, before)) if not _same(a, b)]
    changed += [k for k, v in kwargs.items() if not _same(v, before_kw[k])]
    if changed:
        which = ", ".join(f"argument {c}" if isinstance(c, int) else f"`{c}`" for c in changed)
        fail(f"{what} changed its input in place ({which}). A function JAX transforms must be "
             f"pure: build and return new values (x.at[i].set(v), list + [v], {{**d, k: v}}) "
             f"instead of mutating what the caller passed. See {DOCS}/stateful-computations.html")
    return result


def _same(a: Any, b: Any) -> bool:
    try:
        sa, sb = jax.tree.structure(a), jax.tree.structure(b)
    except Exception:  # noqa: BLE001 - an unflattenable value is compared as a whole
        return a == b
    if sa != sb:
        return False
    return all(np.array_equal(np.asarray(x), np.asarray(y))
               for x, y in zip(jax.tree.leaves(a), jax.tree.leaves(b)))


def assert_sees_global_change(call: Callable[[], Any], set_global: Callable[[Any], None],
                              values: list[Any], expected: Callable[[Any], Any], *, what: str,
                              hint: str = "") -> None:
    """After each `set_global(v)`, `call()` returns `expected(v)`, not a stale value.

    A jitted function that reads a global bakes in the value it saw when it was
    traced; later changes are silently ignored until something retraces it.
    """
    __tracebackhide__ = True
    for value in values:
        set_global(value)
        got, want = call(), expected(value)
        if not np.allclose(np.asarray(got), np.asarray(want), rtol=1e-5, atol=1e-6):
            fail(f"after the global was changed to {value!r}, {what} returned {_short(got)}; "
                 f"expected {_short(want)}. jit traced the function once and baked in the "
                 f"global's old value: the compiled program never looks at the global again. "
                 f"Pass the value in as an argument. {hint} "
                 f"See {DOCS}/stateful-computations.html".replace("  ", " "))


# --- devices and sharding ----------------------------------------------------


def assert_on_devices(x: Any, devices: set[Any] | list[Any], *, what: str, hint: str = "") -> None:
    """Every array leaf of `x` lives on exactly these devices."""
    __tracebackhide__ = True
    want = set(devices)
    for leaf in jax.tree.leaves(x):
        if not isinstance(leaf, jax.Array):
            fail(f"{what} returned a {type(leaf).__name__}, not a jax.Array: it lives on the host. "
                 f"Use jax.device_put or a jnp operation. {hint}".strip())
        got = set(leaf.devices())
        if got != want:
            fail(f"{what} is on {_devices(got)}; expected {_devices(want)}. {hint} "
                 f"See {DOCS}/sharded-computation.html".replace("  ", " "))


def _devices(devices: set[Any]) -> str:
    ids = sorted(d.id for d in devices)
    return f"device {ids[0]}" if len(ids) == 1 else f"devices {ids}"


def assert_sharding(x: jax.Array, *, what: str, spec: Any = None, shard_shape: tuple[int, ...] | None = None,
                    n_devices: int | None = None, hint: str = "") -> None:
    """`x` is sharded as asked: partition spec, per-shard shape and how many devices hold it."""
    __tracebackhide__ = True
    if not isinstance(x, jax.Array):
        fail(f"{what} is a {type(x).__name__}, not a jax.Array. {hint}".strip())
    sharding = x.sharding
    if spec is not None:
        got = getattr(sharding, "spec", None)
        if got is None or tuple(got) + (None,) * (x.ndim - len(got)) != tuple(spec) + (None,) * (x.ndim - len(spec)):
            fail(f"{what} has sharding {sharding}; expected PartitionSpec{tuple(spec)}. {hint} "
                 f"See {DOCS}/notebooks/Distributed_arrays_and_automatic_parallelization.html".replace("  ", " "))
    if shard_shape is not None:
        got_shape = sharding.shard_shape(x.shape)
        if tuple(got_shape) != tuple(shard_shape):
            fail(f"{what}: each shard has shape {tuple(got_shape)}; expected {tuple(shard_shape)}. {hint}".strip())
    if n_devices is not None:
        held = {shard.device for shard in x.addressable_shards}
        if len(held) != n_devices:
            fail(f"{what} is spread over {len(held)} device(s); expected {n_devices}. {hint}".strip())


def assert_replicated(x: jax.Array, *, what: str, hint: str = "") -> None:
    """Every device holds the whole of `x`, and all copies agree."""
    __tracebackhide__ = True
    if not x.sharding.is_fully_replicated:
        fail(f"{what} is not replicated (sharding {x.sharding}): each device holds only part of it. "
             f"A collective such as lax.psum/all_gather makes every device hold the whole. {hint}".strip())
    first = np.asarray(x.addressable_shards[0].data)
    for shard in x.addressable_shards[1:]:
        if not np.array_equal(np.asarray(shard.data), first):
            fail(f"{what} differs between devices {x.addressable_shards[0].device.id} and "
                 f"{shard.device.id}. {hint}".strip())


# --- PRNG ----------------------------------------------------------------------


@contextlib.contextmanager
def no_key_reuse(what: str) -> Iterator[None]:
    """Run the block with JAX's key-reuse checker on; a reuse fails with a lesson.

    Only typed keys (`jax.random.key`) are tracked; legacy `PRNGKey` arrays are not.
    """
    from jax.errors import KeyReuseError

    with jax.debug_key_reuse(True):
        try:
            yield
        except KeyReuseError as error:
            first = str(error).splitlines()[0]
            raise KataFailure(
                f"{what} used the same PRNG key twice ({first}). A key is consumed by one draw: "
                f"split it (jax.random.split) or fold_in a counter, and use each new key once. "
                f"See {DOCS}/random-numbers.html") from error


# --- vmap and pmap (appended for the vmap/pmap topics) ----------------------------


def assert_not_unrolled_over_batch(fn: Callable, make_args: Callable[[int], tuple], batch_sizes: tuple[int, ...],
                                   *, what: str, hint: str = "") -> None:
    """Tracing `fn(*make_args(b))` gives a program of the same size for every batch size `b`.

    A Python loop or comprehension over the examples is unrolled into one copy of
    the per-example work per example; `jax.vmap` (or batched jnp code) traces to
    the same program whatever the batch size.

    Args:
      make_args: batch size -> the positional arguments of one call.
      batch_sizes: at least two different sizes, e.g. (2, 9).
    """
    __tracebackhide__ = True
    sizes = {b: jaxpr_size(fn, *make_args(b)) for b in batch_sizes}
    if len(set(sizes.values())) > 1:
        listed = ", ".join(f"batch {b} -> {s} equations" for b, s in sorted(sizes.items()))
        fail(f"{what}: the traced program grows with the batch size ({listed}). A Python loop or "
             f"comprehension over the examples is unrolled, one copy of the work per example. Map "
             f"the one-example function with jax.vmap (or write it batched) so the program stays "
             f"the same size. {hint} See {DOCS}/automatic-vectorization.html".replace("  ", " "))


def assert_split_over_devices(x: Any, *, what: str, hint: str = "") -> None:
    """Each of `jax.devices()` holds its own, equal slice of `x`'s leading axis.

    That is how `pmap` (or a jit whose leading axis is sharded) returns results:
    device i keeps the rows it computed. A result on one device, or a whole copy
    on every device, fails.
    """
    __tracebackhide__ = True
    if not isinstance(x, jax.Array):
        fail(f"{what} returned a {type(x).__name__}, not a jax.Array. {hint}".strip())
    devices = set(jax.devices())
    n, rows = len(devices), (x.shape[0] if x.ndim else 0)
    shards = x.addressable_shards
    held = {shard.device for shard in shards}
    if held != devices or len(shards) != n:
        fail(f"{what} is on {_devices(held)}; expected one slice of its leading axis on each of "
             f"the {n} devices. jax.pmap runs the function once per device and leaves each "
             f"device's result where it was computed; vmap or jit alone stay on one device. "
             f"{hint} See {DOCS}/_autosummary/jax.pmap.html".replace("  ", " "))
    starts = set()
    for shard in shards:
        index = shard.index[0] if shard.index else slice(None)
        start, stop, _ = index.indices(rows)
        if rows % n or stop - start != rows // n or tuple(shard.data.shape[1:]) != tuple(x.shape[1:]):
            fail(f"{what}: device {shard.device.id} holds a block of shape {tuple(shard.data.shape)} "
                 f"of the shape-{tuple(x.shape)} result; expected its own contiguous {rows // n} of "
                 f"the {rows} leading rows. The result was gathered or rearranged across devices "
                 f"after pmap; keep each device's rows where pmap computed them. "
                 f"{hint}".replace("  ", " ").strip())
        starts.add(start)
    if len(starts) != n:
        fail(f"{what}: several devices hold the same rows; expected each device to hold its own "
             f"slice of the leading axis. {hint}".strip())


# --- several JAX processes ------------------------------------------------------

# What each process runs: plain Python (no pytest), so a learner's module sees a
# JAX exactly like `python my_script.py` on one host of a cluster would.
_PROCESS_MAIN = r"""
import importlib.util, json, sys, traceback
path, name, coordinator, count, index, n_devices, out = sys.argv[1:8]
import jax
import numpy as np
jax.config.update("jax_platforms", "cpu")
jax.config.update("jax_num_cpu_devices", int(n_devices))

def plain(value):
    if isinstance(value, jax.Device):
        return value.id
    if isinstance(value, (tuple, set, frozenset)):
        return list(value)
    if hasattr(value, "__array__"):
        return np.asarray(value).tolist()
    raise TypeError(f"cannot send a {type(value).__name__} back to the check")

try:
    spec = importlib.util.spec_from_file_location("kata_process_module", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    result = getattr(module, name)(coordinator, int(count), int(index))
    text = json.dumps({"ok": True, "result": result}, default=plain)
except BaseException as error:
    lines = [f.lineno for f in traceback.extract_tb(error.__traceback__) if f.filename == path]
    text = json.dumps({"ok": False, "error": type(error).__name__, "message": str(error),
                       "line": lines[-1] if lines else None})
with open(out, "w", encoding="utf-8") as file:
    file.write(text)
if not json.loads(text)["ok"]:
    import os
    os._exit(3)  # skip jax.distributed's exit barrier: the peers may never reach it
"""

_PROCESS_RUNS: dict[tuple, tuple[str, Any]] = {}  # one launch per (file content, function, sizes)
MULTI_PROCESS_DOCS = f"{DOCS}/multi_process.html"


def run_in_processes(module_file: str, function: str, *, what: str, n_processes: int = 2,
                     devices_per_process: int | None = None, timeout: float = 45.0) -> list[Any]:
    """Run `function(coordinator, n_processes, process_id)` from `module_file` in
    `n_processes` fresh Python processes on this machine; return their results in
    process order.

    Each process is a plain Python interpreter (no pytest) with
    `devices_per_process` CPU devices (default: this process's device count
    split between them), the coordinator is `127.0.0.1:<a free port>`, and
    results come back as JSON (arrays as lists, devices as their ids). The
    whole launch is bounded by `timeout`: a process waiting for a peer that
    never joins is killed and the check fails instead of hanging. Results (and
    failures) are remembered per file content, so several checks of one
    exercise share one launch.

    Raises:
      NotImplementedError when a process hit the exercise's TODO, so a stub
        fails like any other unfinished exercise.
      KataFailure when a process raised, crashed or did not finish in time.
    """
    __tracebackhide__ = True
    import hashlib
    from pathlib import Path

    path = Path(module_file).resolve()
    per = devices_per_process or max(1, jax.device_count() // n_processes)
    key = (str(path), hashlib.sha256(path.read_bytes()).hexdigest(), function, n_processes, per)
    if key not in _PROCESS_RUNS:
        for _ in range(2):  # the free port can be taken between choosing it and binding it: retry once
            _PROCESS_RUNS[key] = _launch_processes(path, function, what, n_processes, per, timeout)
            if _PROCESS_RUNS[key][0] != "port taken":
                break
        if _PROCESS_RUNS[key][0] == "port taken":
            _PROCESS_RUNS[key] = ("fail", f"{what}: the coordinator could not bind a free port twice "
                                          f"({_PROCESS_RUNS[key][1]}): the machine is short of ports")
    kind, value = _PROCESS_RUNS[key]
    if kind == "todo":
        raise NotImplementedError(value)
    if kind == "fail":
        fail(value)
    return value


def _free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _launch_processes(path: Any, function: str, what: str, n: int, per: int,
                      timeout: float) -> tuple[str, Any]:
    import json
    import os
    import signal
    import subprocess
    import sys
    import tempfile
    import time
    from pathlib import Path

    coordinator = f"127.0.0.1:{_free_port()}"
    env = {**os.environ, "JAX_PLATFORMS": "cpu"}
    with tempfile.TemporaryDirectory(prefix="katas-processes-") as scratch:
        folder = Path(scratch)
        children, logs = [], []
        for i in range(n):
            log = open(folder / f"log-{i}.txt", "w+", encoding="utf-8", errors="replace")
            logs.append(log)
            children.append(subprocess.Popen(
                [sys.executable, "-c", _PROCESS_MAIN, str(path), function, coordinator, str(n), str(i),
                 str(per), str(folder / f"result-{i}.json")],
                stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=env,
                start_new_session=True))
        deadline = time.monotonic() + timeout
        timed_out = False
        while any(c.poll() is None for c in children):
            # Once one process has failed, its peers are stuck waiting for it: stop soon.
            if any(c.returncode not in (None, 0) for c in children):
                deadline = min(deadline, time.monotonic() + 3.0)
            if time.monotonic() > deadline:
                timed_out = True
                break
            time.sleep(0.05)
        stuck = [i for i, c in enumerate(children) if c.poll() is None]
        for child in children:
            if child.poll() is None:
                os.killpg(child.pid, signal.SIGKILL)
                child.wait()
        reports, crashes = [], []
        for i, child in enumerate(children):
            result = folder / f"result-{i}.json"
            reports.append(json.loads(result.read_text()) if result.exists() else None)
            logs[i].seek(0)
            crashes.append(_last_error_line(logs[i].read()))
            logs[i].close()

    taken = [line for line in crashes if "already in use" in line.lower() or "failed to add port" in line.lower()]
    if taken:
        return "port taken", taken[0]
    for report in reports:
        if report and not report["ok"] and report["error"] == "NotImplementedError":
            return "todo", report["message"]
    for i, report in enumerate(reports):
        if report and not report["ok"]:
            where = f" at line {report['line']} of {path.name}" if report["line"] else ""
            return "fail", (f"{what}: process {i} of {n} raised {report['error']}{where}: "
                            f"{report['message'][:400]}")
    if timed_out and stuck:
        return "fail", (
            f"{what}: process(es) {stuck} of {n} did not finish within {timeout:g} s and were "
            f"stopped. A process waiting for a peer that never arrives hangs: "
            f"jax.distributed.initialize waits until all num_processes processes, each with its own "
            f"process_id, have joined, and a collective waits until every process reaches it. "
            f"Pass on the coordinator address, num_processes and process_id you are given. "
            f"See {MULTI_PROCESS_DOCS}")
    for i, (report, child) in enumerate(zip(reports, children)):
        if report is None:
            code = child.returncode
            how = f"was killed by {signal.Signals(-code).name}" if code < 0 else f"exited with code {code}"
            return "fail", (
                f"{what}: process {i} of {n} {how} before returning ({crashes[i]}). A process "
                f"aborts when jax.distributed.initialize times out waiting for its peers (a wrong "
                f"num_processes or two processes with the same process_id) or when a peer it "
                f"was talking to died. See {MULTI_PROCESS_DOCS}")
    return "ok", [report["result"] for report in reports]


def _last_error_line(log: str) -> str:
    """The most telling line of a crashed process's output, for the failure message."""
    lines = [line.strip() for line in log.splitlines() if line.strip() and not line.startswith("[Gloo]")]
    telling = [line for line in lines if "rror" in line or line.startswith(("F0", "E0"))]
    text = (telling or lines or ["no output"])[-1]
    return text if len(text) <= 300 else text[:297] + "..."
