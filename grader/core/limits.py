"""Start a command under resource limits: `python -m grader.core.limits [limits] -- CMD ...`.

The grader starts every check process through this launcher rather than a
`preexec_fn`, which is unsafe while the batch grader runs worker threads.
It sets the limits on itself, then replaces itself with the command.
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
from dataclasses import dataclass

GIB = 1024**3
MIB = 1024**2


@dataclass(frozen=True)
class Limits:
    check_seconds: int = 60  # one check (pytest-timeout in the child)
    submission_seconds: int = 1800  # all of one submission's checks
    memory_bytes: int = 4 * GIB  # address space per process: JAX on CPU needs about 1.6 GiB
    processes: int = 4096  # per user, threads included: XLA starts many
    file_bytes: int = 256 * MIB  # largest file a check process may write
    scratch_bytes: int = 512 * MIB  # each of a subject's home, tmp and cache, all files together
    scratch_files: int = 50_000  # files and folders in a subject's home, tmp and own cache together
    hang_grace: int = 5  # extra seconds before a check stuck in native code is killed

    def launcher(self) -> list[str]:
        """The command prefix that applies these limits."""
        return [sys.executable, "-I", "-m", "grader.core.limits",
                "--memory", str(self.memory_bytes), "--processes", str(self.processes),
                "--file-size", str(self.file_bytes), "--"]


def _apply(kind: int, value: int) -> None:
    soft, hard = resource.getrlimit(kind)
    if hard != resource.RLIM_INFINITY:
        value = min(value, hard)
    resource.setrlimit(kind, (value, value))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m grader.core.limits")
    parser.add_argument("--memory", type=int, required=True)
    parser.add_argument("--processes", type=int, required=True)
    parser.add_argument("--file-size", type=int, required=True)
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args(argv)
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        parser.error("no command to run")
    _apply(resource.RLIMIT_AS, args.memory)
    _apply(resource.RLIMIT_NPROC, args.processes)
    _apply(resource.RLIMIT_FSIZE, args.file_size)
    _apply(resource.RLIMIT_CORE, 0)
    die_with_parent()
    os.execv(command[0], command)


def die_with_parent() -> None:
    """Linux: end the check process if the grader dies (a killed batch leaves no orphans)."""
    if not sys.platform.startswith("linux"):
        return
    import ctypes
    import signal

    libc = ctypes.CDLL(None, use_errno=True)
    pr_set_pdeathsig = 1
    libc.prctl(pr_set_pdeathsig, signal.SIGKILL)


if __name__ == "__main__":
    main()


# The subject's scratch folders, how many files they may hold and how many bytes each may hold, for its
# keeper (grader.engine.remote.subject.keeper).
SCRATCH_ENV, SCRATCH_FILES_ENV, SCRATCH_BYTES_ENV = "KATAS_SCRATCH", "KATAS_SCRATCH_FILES", "KATAS_SCRATCH_BYTES"
# What the keeper writes in the subject's log, before which limit, when it ends a subject for its scratch folders.
SCRATCH_FULL = "[katas keeper] the subject put"
