"""A grader process's own profile, for finding where grading time goes: set KATAS_PROFILE to a folder
and each examiner writes `examiner-PID.prof` there as it ends (read with `python -m pstats FILE`).

Only trusted processes profile themselves: a subject refuses `sys.setprofile` (its audit hook), so
what runs beside the submission shows in an examiner's profile as the time its requests waited.
"""

from __future__ import annotations

import os
from typing import Any

PROFILE_ENV = "KATAS_PROFILE"

_running: tuple[Any, str] | None = None  # (the profiler, the file it will be written to)


def start(role: str) -> None:
    """Profile this process from now on, if KATAS_PROFILE names a folder."""
    global _running
    folder = os.environ.get(PROFILE_ENV)
    if not folder or _running is not None:
        return
    import cProfile

    os.makedirs(folder, exist_ok=True)
    profiler = cProfile.Profile()
    _running = (profiler, os.path.join(folder, f"{role}-{os.getpid()}.prof"))
    profiler.enable()


def finish() -> None:
    """Write the profile now (a process that ends with os._exit calls this first)."""
    global _running
    if _running is None:
        return
    profiler, path = _running
    _running = None
    profiler.disable()
    profiler.dump_stats(path)

