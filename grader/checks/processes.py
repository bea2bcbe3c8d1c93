"""Several JAX processes on this machine, as on the hosts of a cluster."""

from __future__ import annotations

from typing import Any

import jax

from grader.checks.core import DOCS, fail

# What each process runs: plain Python (no pytest), so a learner's module sees a
# JAX exactly like `python my_script.py` on one host of a cluster would.
PROCESS_MAIN = r"""
import builtins, importlib.util, json, sys, traceback, types
path, name, coordinator, count, index, n_devices, out, prelude = sys.argv[1:9]
# This process's secret, from the launcher (not in argv, which every process on the machine can
# read): proof, after the function returned, that the processes joined one cluster, for only the
# coordination service they joined carries each peer's secret to the others.
SECRET = globals().pop("KATAS_SECRET", None)
if SECRET is None:  # a new interpreter: read from stdin, which then reads nothing, as a forked one's
    import os
    SECRET = sys.stdin.readline().strip()
    nothing = os.open(os.devnull, os.O_RDONLY)
    os.dup2(nothing, 0)
    os.close(nothing)
import jax
import numpy as np
from jax._src import array as jax_array, distributed as jax_distributed, xla_bridge
from jax._src.lib import xla_client
jax.config.update("jax_platforms", "cpu")
jax.config.update("jax_num_cpu_devices", int(n_devices))

# Everything the facts and the report are read or written through, bound before the exercise is
# imported: its code runs in this very process, so what it rebinds (jax.process_count = ..., a
# class's property, json.dumps) is compared, by identity, with these once its function returned.
WATCHED = (jax, xla_bridge, jax_distributed, jax_array, json, json.encoder, builtins, np, types,
           jax.Device, xla_client.Client, jax_array.ArrayImpl, jax_array.Shard, jax.sharding.NamedSharding)
FACTS = {"process_count": jax.process_count, "process_index": jax.process_index,
         "device_count": jax.device_count, "local_device_count": jax.local_device_count}
DEVICES, LOCAL_DEVICES, DUMPS, OPEN, DEVICE = jax.devices, jax.local_devices, json.dumps, open, jax.Device
RENAME = __import__("os").replace
CLUSTER, CLIENT = jax_distributed.global_state, jax_distributed._jax.DistributedRuntimeClient
PUT, GET = CLIENT.key_value_set, CLIENT.blocking_key_value_get
ARRAYS, PLAIN = (np.ndarray, np.generic, jax_array.ArrayImpl), (bool, int, float, str, type(None))

def identities():
    return {(owner, key): value for owner in WATCHED for key, value in list(vars(owner).items())
            if isinstance(owner, type) or callable(value) or isinstance(value, types.ModuleType)}

def changed(start):
    gone = object()
    moved = [(owner, key) for (owner, key), value in start.items() if vars(owner).get(key, gone) is not value]
    added = [(owner, key) for owner in WATCHED if isinstance(owner, type)
             for key in vars(owner) if (owner, key) not in start]
    return sorted(f"{owner.__name__}.{key}" for owner, key in moved + added)

def joined_secrets():
    # Each process puts its secret in the coordination service it joined and reads every peer's back.
    # None when this process runs no client of jax.distributed (it never joined, or left).
    client = getattr(CLUSTER, "client", None)
    if type(client) is not CLIENT:
        return None
    PUT(client, f"katas_secret/{index}", SECRET)
    return [GET(client, f"katas_secret/{i}", 10_000) for i in range(int(count))]

def plain(value, depth=0):
    # A fresh tree of exact plain types: a dict subclass's own items() or __setitem__ never reach JSON.
    if depth > 20:
        raise TypeError("the report is nested too deeply")
    if type(value) in PLAIN:
        return value
    if type(value) is dict:
        if not all(type(key) is str for key in value):
            raise TypeError("a report's keys are strings")
        return {key: plain(item, depth + 1) for key, item in value.items()}
    if type(value) in (list, tuple, set, frozenset):
        return [plain(item, depth + 1) for item in value]
    if type(value) is DEVICE:
        return value.id
    if type(value) in ARRAYS:
        return plain(np.asarray(value).tolist(), depth + 1)
    raise TypeError(f"cannot send a {type(value).__name__} back to the check: return a plain dict "
                    f"of numbers, strings, lists and arrays")

if int(index) > 0:
    # Let process 0 open the coordinator first: a peer that knocks before it listens waits out a
    # second of gRPC back-off. Bounded, so an answer that never starts the service still fails.
    import socket, time
    host, port = coordinator.rsplit(":", 1)
    give_up = time.monotonic() + 3.0
    while time.monotonic() < give_up:
        try:
            socket.create_connection((host, int(port)), timeout=0.1).close()
            break
        except OSError:
            time.sleep(0.01)

start = identities()
findings = {}  # the check's prelude writes what it saw here, out of the answer's reach
try:
    spec = importlib.util.spec_from_file_location("kata_process_module", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    if prelude:  # the check's own set-up, e.g. each process may read only its own data
        exec(prelude, {"module": module, "process_id": int(index), "num_processes": int(count),
                       "findings": findings})
    result = getattr(module, name)(coordinator, int(count), int(index))
    rebound = changed(start)
    if rebound:
        text = DUMPS({"ok": False, "error": "rebound", "message": ", ".join(rebound[:6]), "line": None})
    else:
        # What JAX itself says once the learner's code has run: proof the processes joined,
        # whatever the function returned.
        observed = {key: fact() for key, fact in FACTS.items()}
        observed.update(devices=[d.id for d in DEVICES()], local_devices=[d.id for d in LOCAL_DEVICES()],
                        findings=plain(findings), secrets=joined_secrets())
        text = DUMPS({"ok": True, "result": plain(result), "observed": observed})
except BaseException as error:
    lines = [f.lineno for f in traceback.extract_tb(error.__traceback__) if f.filename == path]
    text = DUMPS({"ok": False, "error": type(error).__name__, "message": str(error),
                  "line": lines[-1] if lines else None})
# Written whole or not at all: a process stopped while writing (its peer failed, the launch gave up)
# leaves no half a report behind.
with OPEN(out + ".part", "w", encoding="utf-8") as file:
    file.write(text)
RENAME(out + ".part", out)
if not json.loads(text)["ok"]:
    import os
    os._exit(3)  # skip jax.distributed's exit barrier: the peers may never reach it
"""

_PROCESS_RUNS: dict[tuple, tuple[str, Any]] = {}  # a learner's own run: one launch per (file content, function, sizes)
MULTI_PROCESS_DOCS = f"{DOCS}/multi_process.html"


def run_in_processes(module_file: str, function: str, *, what: str, n_processes: int = 2,
                     devices_per_process: int | None = None, timeout: float = 45.0,
                     observed: bool = False, prelude: str = "") -> list[Any]:
    """Run `function(coordinator, n_processes, process_id)` from `module_file` in
    `n_processes` fresh Python processes on this machine; return their results in
    process order.

    Each process is plain Python (no pytest), forked from the check
    process's fork server, which has imported JAX but never started it (so it
    starts in a blink, not the second an interpreter takes to import JAX; a
    new interpreter where there is no server), with
    `devices_per_process` CPU devices (default: this process's device count
    split between them), the coordinator is `127.0.0.1:<a free port>`, and
    results come back as JSON (arrays as lists, devices as their ids). With
    `observed=True` each entry is `(result, observed)`, where `observed` is what
    JAX reported in that process after the function returned
    (`process_count`, `process_index`, `device_count`, `local_device_count`, and
    the ids of `devices` and `local_devices`): proof the processes really joined,
    whatever the function returned, read through functions bound before the
    module was imported; a process whose code rebound one of the names those
    facts or the report go through (`jax.process_count = ...`, a JAX class's
    entry, `json.dumps`) fails the launch, and a result that is not made of
    exact plain types (a `dict` subclass) is refused. `prelude` is Python
    source each process runs after importing the module and before calling
    the function, with `module`, `process_id`, `num_processes` and `findings`
    in scope: a check's own set-up, such as letting a process read only its
    own share of the data; what it writes into the dict `findings` comes back
    as `observed["findings"]`, apart from the function's result. The
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

    from grader.checks import site

    where = site.current()
    if where is not None:  # the processes run the exercise: they start where it runs
        value = where.run_in_processes(str(module_file), function, what, {
            "n_processes": n_processes, "devices_per_process": devices_per_process, "timeout": timeout,
            "prelude": prelude})
        return value if observed else [result for result, _ in value]
    path = Path(module_file).resolve()
    per = devices_per_process or max(1, jax.device_count() // n_processes)
    key = (str(path), hashlib.sha256(path.read_bytes()).hexdigest(), function, n_processes, per, prelude)
    if key not in _PROCESS_RUNS:
        _PROCESS_RUNS[key] = launch(path, function, what=what, n_processes=n_processes, devices_per_process=per,
                                    timeout=timeout, prelude=prelude)
    value = delivered(_PROCESS_RUNS[key])
    return value if observed else [result for result, _ in value]


def launch(module_file: str | Any, function: str, *, what: str, n_processes: int = 2,
           devices_per_process: int | None = None, timeout: float = 45.0, prelude: str = "") -> tuple[str, Any]:
    """One launch of `run_in_processes`, remembered nowhere: ("ok", each process's (result, observed)),
    ("todo", message) or ("fail", message). Under the grader the subject launches with this, and the
    examiner remembers the answer: a record the subject kept could be filled in by the exercise."""
    from pathlib import Path

    path = Path(module_file).resolve()
    per = devices_per_process or max(1, jax.device_count() // n_processes)
    for _ in range(2):  # the free port can be taken between choosing it and binding it: retry once
        launched = _launch_processes(path, function, what, n_processes, per, timeout, prelude)
        if launched[0] != "port taken":
            return launched
    return ("fail", f"{what}: the coordinator could not bind a free port twice ({launched[1]}): the machine "
                    f"is short of ports")


def delivered(launched: tuple[str, Any]) -> Any:
    """What a launch gives a check: each process's (result, observed), or the failure it raises."""
    __tracebackhide__ = True
    kind, value = launched
    if kind == "todo":
        raise NotImplementedError(value)
    if kind == "fail":
        fail(value, "multi-process")
    return value


def _free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _launch_processes(path: Any, function: str, what: str, n: int, per: int,
                      timeout: float, prelude: str = "") -> tuple[str, Any]:
    import json
    import os
    import secrets
    import signal
    import subprocess
    import sys
    import tempfile
    import time
    from pathlib import Path

    from grader.runtime import forkserver

    coordinator = f"127.0.0.1:{_free_port()}"
    secret_of = [secrets.token_hex(16) for _ in range(n)]
    env = {**os.environ, "JAX_PLATFORMS": "cpu"}
    with tempfile.TemporaryDirectory(prefix="katas-processes-") as scratch:
        folder = Path(scratch)
        children, logs = [], []
        for i in range(n):
            log = open(folder / f"log-{i}.txt", "w+", encoding="utf-8", errors="replace")
            logs.append(log)
            args = [str(path), function, coordinator, str(n), str(i), str(per), str(folder / f"result-{i}.json"),
                    prelude]
            forked = forkserver.fork(run_process_main, [args, secret_of[i]], env=env,
                                     log=str(folder / f"log-{i}.txt"))
            if forked is None:
                forked = subprocess.Popen([sys.executable, "-c", PROCESS_MAIN, *args], stdout=log,
                                          stderr=subprocess.STDOUT, stdin=subprocess.PIPE, env=env,
                                          start_new_session=True)
                forked.stdin.write(f"{secret_of[i]}\n".encode())
                forked.stdin.close()
            children.append(forked)
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
                try:
                    os.killpg(child.pid, signal.SIGKILL)
                except ProcessLookupError:
                    try:
                        os.kill(child.pid, signal.SIGKILL)  # forked, not yet in a session of its own
                    except ProcessLookupError:
                        pass  # it ended between the look and the kill
                child.wait()
        reports, crashes = [], []
        for i, child in enumerate(children):
            result = folder / f"result-{i}.json"
            reports.append(_report(result))
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
        if report and not report["ok"] and report["error"] == "rebound":
            return "fail", (f"{what}: in process {i} of {n} the exercise's code replaced what JAX's own "
                            f"answers are read through ({report['message']}), so nothing it reports about "
                            f"the cluster can be believed. Call JAX's functions; never assign to them.")
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
    for i, report in enumerate(reports):
        unproven = _unproven(report["observed"], secret_of, what, i, n)
        if unproven:
            return "fail", unproven
    return "ok", [(report["result"], report["observed"]) for report in reports]


def _report(result: Any) -> Any:
    """A process's report, or None where it left none whole (stopped before or while writing it)."""
    import json

    try:
        report = json.loads(result.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return report if type(report) is dict and "ok" in report else None


def _unproven(observed: Any, secret_of: list[str], what: str, i: int, n: int) -> str:
    """Why process i's report of a joined cluster is not believed ("" when it is). Each process puts
    a secret of its own, handed to it apart from the others', in the coordination service it joined,
    and reports every peer's as read back there: only processes that joined one cluster know them all."""
    if type(observed) is not dict or "secrets" not in observed:
        return (f"{what}: process {i} of {n} left a report the launch did not write (it lacks the proof "
                f"every report of the launch carries): the result file is the launch's to write, after "
                f"the function returns. Return your result; never end the process yourself.")
    if observed.get("process_count") == 1 and observed["secrets"] is None:
        return ""  # never joined: the checks say so, from what JAX reported
    if observed["secrets"] is None:
        return (f"{what}: process {i} of {n} says JAX joined {observed.get('process_count')} processes, "
                f"but no jax.distributed client ran there once the function returned (was "
                f"jax.distributed.shutdown called?), so nothing proves the processes joined. Leave the "
                f"cluster joined: JAX leaves it when the process exits. See {MULTI_PROCESS_DOCS}")
    if observed["secrets"] != secret_of:
        return (f"{what}: process {i} of {n} reports a cluster its peers were not in: the secrets the "
                f"processes put in the coordination service they joined are not the ones its report "
                f"holds, so the report did not come from {n} processes joined by jax.distributed. Report "
                f"what JAX says; never write or change the launch's report.")
    return ""


def _last_error_line(log: str) -> str:
    """The most telling line of a crashed process's output, for the failure message."""
    lines = [line.strip() for line in log.splitlines() if line.strip() and not line.startswith("[Gloo]")]
    telling = [line for line in lines if "rror" in line or line.startswith(("F0", "E0"))]
    text = (telling or lines or ["no output"])[-1]
    return text if len(text) <= 300 else text[:297] + "..."


# --- a process forked from the check process's fork server -----------------------------------------


def run_process_main(args: list[str], secret: str) -> int:
    """Run PROCESS_MAIN with `args` here, as `python -c` would, and this process's `secret` (which a
    new interpreter reads from its stdin); its exit code (for the fork server)."""
    import atexit
    import sys
    import traceback

    sys.argv = ["-c", *args]
    code = 0
    try:
        exec(compile(PROCESS_MAIN, "<kata process>", "exec"), {"__name__": "__main__", "KATAS_SECRET": secret})
    except SystemExit as done:
        code = done.code if isinstance(done.code, int) else (0 if done.code is None else 1)
    except BaseException:  # noqa: BLE001 - reported in the process's log, as an interpreter would
        traceback.print_exc()
        code = 1
    try:
        atexit._run_exitfuncs()  # as at a normal exit: jax.distributed's shutdown
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
    return code
