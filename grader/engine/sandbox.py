"""The wall around a check process: Linux namespaces through bubblewrap, or plain processes.

`namespaces` (bubblewrap, `bwrap`): each check process runs in new PID,
network, IPC, UTS and mount namespaces. It sees a read-only system and
Python environment, the grader package on its own (never the repository's
`solutions/`) and the subject's side of its workspace: this one submission's
exercise files, never the checks (the examiner holds those, outside it);
its home, /tmp and compilation cache are private. It has no network but
loopback. Every process it starts dies with it: when the check process ends,
the kernel ends its whole PID namespace.

`process`: the fallback where bubblewrap is missing or cannot create
namespaces (some containers): a scrubbed environment, a private workspace in
/tmp and resource limits, but the rest of the file system is as readable as
it is to the grader, and processes that leave the check's process group
survive it. Every output says which mode graded a submission.

`KATAS_ISOLATION=process` (or `grader grade --isolation process`) forces the
fallback; `namespaces` demands the sandbox and fails when it cannot start.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import sys
import sysconfig
from dataclasses import dataclass
from pathlib import Path

NAMESPACES = "namespaces"
PROCESS = "process"
ISOLATION_ENV = "KATAS_ISOLATION"
CHOICES = ("auto", NAMESPACES, PROCESS)

# What each mode guarantees, in the words every output uses.
GUARANTEES = {
    NAMESPACES: "sandboxed (bubblewrap): the submission's process sees only its own exercise files and the "
                "Python environment, never the checks or the solutions; no network; every process it starts "
                "ends with its check process",
    PROCESS: "NOT sandboxed (process isolation only): the submission runs with limits in a private "
             "folder, and every process it starts ends with it, but it can read and write what the "
             "grader's user can; install bubblewrap for the sandbox",
}

# Files of /etc that programs need to start (the dynamic loader, time zone, user names).
_ETC = ("ld.so.cache", "ld.so.conf", "ld.so.conf.d", "localtime", "passwd", "group", "nsswitch.conf",
        "hosts")


class SandboxUnavailable(RuntimeError):
    """The namespaces sandbox was demanded but cannot start here; the message says why."""


@dataclass(frozen=True)
class Isolation:
    mode: str  # NAMESPACES or PROCESS
    why: str = ""  # for the fallback: why the sandbox is not used
    bwrap: str = ""  # path to bwrap, in namespaces mode

    @property
    def guarantee(self) -> str:
        return GUARANTEES[self.mode]

    def describe(self) -> str:
        return self.guarantee + (f" ({self.why})" if self.why else "")


@functools.cache
def _probe(bwrap: str) -> str:
    """'' when bwrap can create every namespace a check needs, else the reason it cannot."""
    command = [bwrap, "--die-with-parent", "--unshare-all", "--ro-bind", "/", "/", "--proc", "/proc",
               "--dev", "/dev", "true"]
    try:
        probe = subprocess.run(command, capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired) as error:
        return f"bwrap could not run: {error}"
    if probe.returncode != 0:
        last = (probe.stderr.strip().splitlines() or [f"exit status {probe.returncode}"])[-1]
        return f"bwrap cannot create namespaces here: {last}"
    return ""


def choose(wanted: str | None = None) -> Isolation:
    """The isolation this machine gives, as asked: 'auto' (the default), 'namespaces' or 'process'."""
    wanted = (wanted or os.environ.get(ISOLATION_ENV) or "auto").lower()
    if wanted not in CHOICES:
        raise SandboxUnavailable(f"unknown isolation {wanted!r}: choose one of {', '.join(CHOICES)}")
    if wanted == PROCESS:
        return Isolation(PROCESS, "asked for")
    bwrap = shutil.which("bwrap")
    why = "bubblewrap (bwrap) is not installed" if bwrap is None else _probe(bwrap)
    if why:
        if wanted == NAMESPACES:
            raise SandboxUnavailable(f"the namespaces sandbox cannot start: {why}")
        return Isolation(PROCESS, why)
    return Isolation(NAMESPACES, bwrap=bwrap)


@functools.cache
def _sizes_tmpfs(bwrap: str) -> bool:
    """Whether this bubblewrap can bound a tmpfs's size (`--size`, from 0.7)."""
    try:
        shown = subprocess.run([bwrap, "--help"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return "--size" in shown.stdout + shown.stderr


def _python_roots() -> list[Path]:
    """Folders the interpreter and its packages live in (read-only inside the sandbox).

    Every folder on the import path counts (a `.pth` file can add one outside
    the environment), except the repository itself and anything holding it:
    the check process gets the grader package alone, never `solutions/`.
    """
    from grader import REPO_ROOT

    paths = sysconfig.get_paths()
    found = {Path(sys.prefix), Path(sys.base_prefix), Path(sys.exec_prefix), Path(sys.base_exec_prefix),
             Path(paths["purelib"]), Path(paths["platlib"]), Path(paths["stdlib"]),
             Path(sys.executable).resolve().parent}
    found |= {Path(entry) for entry in sys.path if entry}
    repo, environment = REPO_ROOT.resolve(), Path(sys.prefix).resolve()

    def exposes_repository(folder: Path) -> bool:
        inside_repo = folder.is_relative_to(repo) and not folder.is_relative_to(environment)
        return folder == repo or repo.is_relative_to(folder) or inside_repo

    roots = {p.resolve() for p in found if p.is_dir()}
    return sorted(p for p in roots if not exposes_repository(p))


def _grader_package() -> Path:
    import grader

    return Path(grader.__file__).resolve().parent


def command(isolation: Isolation, workspace_root: Path, *, writable: tuple[Path, ...] = (),
            readable: tuple[Path, ...] = (), scratch: tuple[Path, ...] = (), scratch_bytes: int = 0) -> list[str]:
    """The prefix that runs a command inside the sandbox ([] in process mode).

    The workspace root is visible at its own path, read-only but for
    `writable` (bound to the folder outside) and `scratch` (each an empty
    file system in memory of at most `scratch_bytes`, gone with the sandbox:
    a subject's home, tmp and cache); `readable` adds read-only folders
    (a shared compilation cache). Paths keep their names inside, so the
    command line and descriptors handed to the child need no translation.
    """
    if isolation.mode != NAMESPACES:
        return []
    args = [isolation.bwrap, "--die-with-parent", "--new-session", "--unshare-all", "--cap-drop", "ALL",
            "--ro-bind", "/usr", "/usr"]
    for name in ("bin", "sbin", "lib", "lib32", "lib64", "libx32"):
        top = Path("/") / name
        if top.is_symlink():
            args += ["--symlink", os.readlink(top), str(top)]
        elif top.is_dir():
            args += ["--ro-bind", str(top), str(top)]
    for name in _ETC:
        args += ["--ro-bind-try", f"/etc/{name}", f"/etc/{name}"]
    args += ["--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp"]
    for root in _python_roots():
        args += ["--ro-bind", str(root), str(root)]
    package = _grader_package()
    args += ["--ro-bind", str(package), str(package)]
    root = workspace_root.resolve()
    args += ["--ro-bind", str(root), str(root)]
    for folder in (*readable,):
        args += ["--ro-bind", str(folder.resolve()), str(folder.resolve())]
    for folder in writable:
        args += ["--bind", str(folder.resolve()), str(folder.resolve())]
    for folder in scratch:
        bounded = ["--size", str(scratch_bytes)] if scratch_bytes and _sizes_tmpfs(isolation.bwrap) else []
        args += [*bounded, "--tmpfs", str(folder.resolve())]
    args += ["--chdir", str(root), "--"]
    return args
