"""`grader doctor`: what this machine gives the grader, before a class is graded on it.

It answers the questions an instructor asks before trusting a score: which
isolation the check processes get (and why not the sandbox, when not), which
Python and JAX grade, whether JAX starts with the katas' 8 virtual devices
inside the check processes' walls, and where the compilation cache lives.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from grader.core.limits import MIB, Limits
from grader.core.selection import UsageProblem
from grader.engine import sandbox

# Run in a check process's walls: starts JAX exactly as the katas' plugin does.
_PROBE = "from grader.runtime.jaxsetup import configure_jax; print(configure_jax())"


def _bwrap_version() -> str:
    try:
        found = subprocess.run(["bwrap", "--version"], capture_output=True, text=True, timeout=10)
    except OSError:
        return "not installed"
    return found.stdout.strip() or found.stderr.strip()


def _jax_in_walls(isolation: sandbox.Isolation) -> tuple[bool, str, float]:
    """Start JAX the way a check process does, inside the chosen walls; (ok, what it said, seconds)."""
    with tempfile.TemporaryDirectory(prefix="katas-doctor-") as scratch:
        root = Path(scratch)
        for name in ("home", "tmp", "cache"):
            (root / name).mkdir()
        env = {k: v for k, v in os.environ.items() if not k.startswith(("JAX_", "XLA_", "PYTHON"))}
        env.update(HOME=str(root / "home"), TMPDIR=str(root / "tmp"), XDG_CACHE_HOME=str(root / "cache"))
        command = [*Limits().launcher(),
                   *sandbox.command(isolation, root, writable=(root / "home", root / "tmp", root / "cache")),
                   sys.executable, "-I", "-c", _PROBE]
        start = time.monotonic()
        try:
            probe = subprocess.run(command, capture_output=True, text=True, timeout=120, env=env, cwd=root)
        except (OSError, subprocess.TimeoutExpired) as error:
            return False, str(error), time.monotonic() - start
        seconds = time.monotonic() - start
        lines = (probe.stdout.strip() or probe.stderr.strip() or f"exit status {probe.returncode}").splitlines()
        return probe.returncode == 0, lines[-1], seconds


def findings(wanted: str | None = None) -> dict:
    import jax

    try:
        isolation = sandbox.choose(wanted)
        refused = ""
    except sandbox.SandboxUnavailable as problem:
        isolation, refused = sandbox.choose(sandbox.PROCESS), str(problem)
    ok, said, seconds = _jax_in_walls(isolation)
    from grader.runtime.jaxsetup import cache_dir

    return {
        "python": f"{sys.version.split()[0]} ({sys.executable})",
        "jax": jax.__version__,
        "isolation": isolation.mode,
        "guarantee": isolation.guarantee,
        "why_not_sandboxed": refused or isolation.why,
        "bubblewrap": _bwrap_version(),
        "check_process": {"starts": ok, "said": said, "seconds": round(seconds, 2)},
        "cpu_cores": os.cpu_count(),
        "limits": {"check_seconds": Limits.check_seconds, "memory_mib": Limits.memory_bytes // MIB,
                   "submission_seconds": Limits.submission_seconds},
        "compilation_cache": str(cache_dir()),
    }


def report(wanted: str | None = None, as_json: bool = False) -> int:
    """Print the findings (as JSON with `as_json`); a UsageProblem when a check process cannot start JAX."""
    found = findings(wanted)
    if as_json:
        print(json.dumps(found, indent=2))
    else:
        check = found["check_process"]
        rows = [
            ("python", found["python"]),
            ("jax", found["jax"]),
            ("isolation", f"{found['isolation']}: {found['guarantee']}"),
        ]
        if found["why_not_sandboxed"]:
            rows.append(("", f"why: {found['why_not_sandboxed']}"))
        if found["isolation"] != sandbox.NAMESPACES:
            rows.append(("", "for the sandbox: install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap) "
                             "on a kernel that allows user namespaces; docs/instructors.md says more"))
        rows += [
            ("bubblewrap", found["bubblewrap"]),
            ("check process", f"{'starts' if check['starts'] else 'DOES NOT START'} in {check['seconds']} s: "
                              f"{check['said']}"),
            ("machine", f"{found['cpu_cores']} cores"),
            ("limits", f"{found['limits']['check_seconds']} s per check, {found['limits']['memory_mib']} MiB "
                       f"per check process, {found['limits']['submission_seconds']} s per submission"),
            ("cache", found["compilation_cache"]),
        ]
        width = max(len(name) for name, _ in rows)
        print("\n".join(f"{name:<{width}}  {value}" for name, value in rows))
    if not found["check_process"]["starts"]:
        raise UsageProblem("a check process cannot start JAX here: grading would fail")
    return 0
