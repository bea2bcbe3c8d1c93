"""Grade a class on Dask workers: more machines, the same grading.

`grader batch SUBMISSIONS --out GRADES --scheduler tcp://host:8786` (or
`--cluster local:N`, which starts N workers on this machine) sends each
submission that needs grading to a Dask worker. The worker grades it with
exactly the code the local mode runs (`grader.course.submissions.grade_one`, so
`grader.engine.grading.grade` and the same sandbox) and returns the result record;
the client writes it atomically and rebuilds the tables as results arrive, so
killing the client or losing a worker loses nothing, and a rerun skips what
is done (the same content hashes as the local mode).

What travels: the submission's own entry, packed by the client (a `.zip` or
any other file as its bytes; a folder as a tar of the folder that holds its
exercise files; a bare git repository whole), unpacked on the worker under
the same name. Workers need this repository installed at the same commit as
the client (checked: the fingerprint of the checks and the grader must
match, and the same JAX version), and bubblewrap for the sandbox.

A worker that dies while grading (killed, out of memory, its machine gone)
does not turn into a zero: the scheduler runs the submission again on
another worker (up to `distributed.scheduler.allowed-failures` times, 3 by
default), and a submission whose workers kept dying is left ungraded, named
in the summary, and tried again by the next run. A submission that crashes
its own check process is not a worker death: the check process is a child of
the worker, and grading turns its crash into a failed check with the reason,
exactly as in the local mode.
"""

from __future__ import annotations

import functools
import io
import os
import socket
import sys
import tarfile
import tempfile
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

from grader import REPO_ROOT
from grader.course.submissions import Outcome, Submission, grade_one, is_bare_repo, submission_hash
from grader.core.limits import Limits
from grader.core.manifest import Exercise
from grader.core.files import resolve_target
from grader.engine.warm import checks_fingerprint

INSTALL_HINT = 'python -m pip install -e ".[cluster]"'
LOCAL_PREFIX = "local:"
TASK_RETRIES = 2  # a task that raised (a worker with other checks, no sandbox) is tried elsewhere
LARGE_PARCEL = 1 << 20  # bytes; bigger submissions are scattered to a worker instead of riding in the task
WATCH_SECONDS = 2.0  # how often the client looks at which workers the scheduler has
WAITING_SECONDS = 30.0  # how often it says that submissions still wait for a worker


class ClusterProblem(Exception):
    """The cluster cannot grade this class (unreachable, workers that differ); the message says why."""


class WorkerMismatch(RuntimeError):
    """This worker would not grade like the client: other checks, another JAX, no sandbox."""


@dataclass(frozen=True)
class ClusterSpec:
    """Where to grade: a running scheduler's address, or a number of workers to start here."""

    scheduler: str = ""  # tcp://host:8786
    local_workers: int = 0  # --cluster local:N
    isolation: str | None = None  # what --isolation asked for; each worker resolves it on its machine
    warm: bool = True  # build each worker machine's warm compilation cache first (grader.engine.warm)

    @staticmethod
    def parse_local(value: str) -> int:
        """`local:N` -> N (a positive number of workers), or a ValueError saying what is expected."""
        count = value.removeprefix(LOCAL_PREFIX) if value.startswith(LOCAL_PREFIX) else ""
        if not count.isdigit() or int(count) < 1:
            raise ValueError(f"--cluster takes local:N (N workers on this machine), not {value!r}")
        return int(count)

    def describe(self) -> str:
        return self.scheduler or f"{self.local_workers} local Dask workers"


@dataclass(frozen=True)
class Parcel:
    """One submission as it travels to a worker."""

    name: str  # the student (Submission.name)
    entry: str  # the entry's own file name in SUBMISSIONS/ (alice, alice.zip, alice.git)
    kind: str  # "file": the entry's bytes; "tree": a tar of the folder
    data: bytes


def pack(submission: Submission) -> Parcel:
    """The submission's entry as bytes: a file as it is, a folder as a tar of what grading reads.

    For a folder that is the folder resolve_target picks (the folder itself or its `exercises/`),
    with its path inside the entry kept, so the worker resolves the same files; `__pycache__`
    folders stay behind (grading never reads them). A bare git repository goes whole.
    Raises OSError when the entry cannot be read.
    """
    path = submission.path
    if path.is_file():
        return Parcel(submission.name, path.name, "file", path.read_bytes())
    if not path.is_dir():
        raise OSError(f"{path} is neither a file nor a folder")
    root = path.resolve()
    top = root if is_bare_repo(path) else resolve_target(str(path), REPO_ROOT)
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as tar:
        base = top.relative_to(root).as_posix() if top != root else ""
        if base:
            tar.add(top, arcname=base, recursive=False)
        for folder, dirs, files in os.walk(top):  # never follows links: they travel as links
            dirs[:] = sorted(d for d in dirs if d != "__pycache__")
            here = Path(folder)
            for name in [*dirs, *sorted(files)]:
                item = here / name
                if item.is_symlink() or item.is_dir() or item.is_file():
                    arcname = (Path(base) / item.relative_to(top)).as_posix()
                    tar.add(item, arcname=arcname, recursive=False)
    return Parcel(submission.name, path.name, "tree", buffer.getvalue())


def unpack_parcel(parcel: Parcel, into: Path) -> Path:
    """Lay the entry out again under its own name in `into`; returns its path."""
    if "/" in parcel.entry or parcel.entry in ("", ".", ".."):
        raise ValueError(f"not an entry name: {parcel.entry!r}")
    target = into / parcel.entry
    if parcel.kind == "file":
        target.write_bytes(parcel.data)
        return target
    target.mkdir()
    with tarfile.open(fileobj=io.BytesIO(parcel.data), mode="r:gz") as tar:
        _extract_inside(tar, target)
    return target


def _extract_inside(tar: tarfile.TarFile, target: Path) -> None:
    """Extract as Python's "tar" filter does: nothing lands outside `target` (symlinks stay links,
    wherever they point), no set-id bits or group/other write permission."""
    if hasattr(tarfile, "tar_filter"):  # Python 3.11.4 and later
        tar.extractall(target, filter="tar")
        return
    root = target.resolve()
    members = tar.getmembers()
    for member in members:
        where = (root / member.name).resolve()
        linked = (root / member.linkname).resolve() if member.islnk() else where
        plain = member.isfile() or member.isdir() or member.issym() or member.islnk()
        if not (plain and where.is_relative_to(root) and linked.is_relative_to(root)):
            raise ValueError(f"the parcel holds an unsafe entry: {member.name}")
        member.mode &= ~0o7022
    tar.extractall(target, members=members)


def environment(isolation: str | None = None, user: str | None = None) -> dict:
    """What decides how this machine grades: compared between the client and every worker."""
    from grader.engine import sandbox

    try:
        chosen = sandbox.choose(isolation)
        mode, note, problem = chosen.mode, chosen.why, ""
    except sandbox.SandboxUnavailable as error:
        mode, note, problem = "", "", str(error)
    if user is not None and not problem:
        import pwd

        if os.geteuid() != 0:
            problem = "--sandbox-user needs the worker to run as root"
        else:
            try:
                pwd.getpwnam(user)
            except KeyError:
                problem = f"no user named {user!r} on this machine"
    return {"host": socket.gethostname(), "fingerprint": checks_fingerprint(), "jax": _version("jax"),
            "jaxlib": _version("jaxlib"), "python": sys.version.split()[0], "isolation": mode,
            "isolation_note": note, "problem": problem}


@functools.cache
def settled_environment(isolation: str | None = None, user: str | None = None) -> dict:
    """This worker process's environment, taken the first time it is asked (when the batch starts or
    when the worker first grades): the checks it grades with from then on are the ones it was
    compared on, as a local batch grades with the checks it started with."""
    return environment(isolation, user)


def _version(package: str) -> str:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return "not installed"


def differences(client: dict, worker: dict) -> list[str]:
    """Why a worker would not grade like the client ([] when it would)."""
    found = []
    if worker["fingerprint"] != client["fingerprint"]:
        found.append("its checks, manifest or grader differ from this clone's (install the same commit)")
    for package in ("jax", "jaxlib"):
        if worker[package] != client[package]:
            found.append(f"{package} {worker[package]} (here: {client[package]})")
    if worker["problem"]:
        found.append(worker["problem"])
    return found


def grade_parcel(parcel: Parcel, exercises: tuple[Exercise, ...], limits: Limits, client_env: dict,
                 user: str | None, isolation: str | None) -> dict:
    """The Dask task: grade one submission on this worker, exactly as the local mode would."""
    from grader.engine import sandbox

    _undo_nanny_environment()
    here = settled_environment(isolation, user)
    wrong = differences(client_env, here)
    if wrong:  # raised, so the scheduler tries another worker; never a zero
        raise WorkerMismatch(f"worker {here['host']} would grade differently: {'; '.join(wrong)}")
    with tempfile.TemporaryDirectory(prefix="katas-worker-") as scratch:
        path = unpack_parcel(parcel, Path(scratch))
        record, _ = grade_one(Submission(parcel.name, path), exercises, limits, client_env["fingerprint"],
                              None, True, user, sandbox.choose(isolation))
    record["graded_on"] = here["host"]
    return record


_ENVIRON_LOCK = threading.Lock()


def _undo_nanny_environment() -> None:
    """Take back the variables Dask's nanny sets in its worker processes (one thread for OpenMP, MKL
    and OpenBLAS, a malloc setting): check processes inherit the worker's environment, and must get
    the machine's own, as the local mode's do."""
    import dask

    with _ENVIRON_LOCK:
        for key, value in (dask.config.get("distributed.nanny.pre-spawn-environ", None) or {}).items():
            if os.environ.get(key) == str(value):
                del os.environ[key]


def workers_text(count: int) -> str:
    return f"{count} worker{'' if count == 1 else 's'}"


class WorkerWatch:
    """Says, while a class is graded, when Dask workers join or are lost, and keeps saying so while
    submissions wait with no worker connected (a batch that waits in silence looks hung)."""

    def __init__(self, workers: Callable[[], dict], where: str, say: Callable[[str], None], known=(),
                 every: float = WATCH_SECONDS, remind: float = WAITING_SECONDS,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.workers, self.where, self.say = workers, where, say
        self.known = set(known)
        self.every, self.remind, self.clock = every, remind, clock
        self.waiting_since: float | None = None
        self.reminded = 0.0

    def look(self, waiting: int) -> None:
        """Compare the scheduler's workers with the last look; `waiting`: submissions not graded yet."""
        current = set(self.workers())
        for address in sorted(self.known - current):
            self.say(f"grader: lost Dask worker {address} ({workers_text(len(current))} left); "
                     f"what it was grading goes to another worker")
        for address in sorted(current - self.known):
            self.say(f"grader: Dask worker {address} joined ({workers_text(len(current))})")
        self.known = current
        now = self.clock()
        if current or not waiting:
            self.waiting_since = None
            return
        if self.waiting_since is None:
            self.waiting_since = self.reminded = now
        elif now - self.reminded >= self.remind:
            self.reminded = now
            self.say(f"grader: no Dask worker connected to {self.where} for {now - self.waiting_since:.0f} s; "
                     f"{waiting} submission{'s' * (waiting != 1)} wait for one to join")

    @contextmanager
    def running(self, waiting: Callable[[], int]) -> Iterator[None]:
        """Look every `every` seconds, in a thread, while the body runs."""
        stop = threading.Event()

        def loop() -> None:
            while not stop.wait(self.every):
                try:
                    self.look(waiting())
                except Exception:  # noqa: BLE001 - the scheduler went away: grading itself says so
                    pass

        thread = threading.Thread(target=loop, name="katas-worker-watch", daemon=True)
        thread.start()
        try:
            yield
        finally:
            stop.set()
            thread.join()


class Cluster:
    """A connection to a Dask scheduler (started here for `local:N`), closed with the context."""

    def __init__(self, spec: ClusterSpec) -> None:
        self.spec = spec
        self.client = None
        self._local = None
        self.known_workers: set[str] = set()  # the workers `prepare` found

    def __enter__(self) -> Cluster:
        try:
            import dask
            from distributed import Client, LocalCluster
        except ImportError:
            raise ClusterProblem(f"grading on a Dask cluster needs Dask: {INSTALL_HINT}") from None
        import logging

        dask.config.set({"distributed.scheduler.allowed-failures": 3})  # for the scheduler started here
        try:
            if self.spec.local_workers:
                # One thread per worker process: a worker grades one submission at a time, and losing
                # one process loses one submission in flight, which the scheduler runs again.
                self._local = LocalCluster(n_workers=self.spec.local_workers, threads_per_worker=1,
                                           processes=True, host="127.0.0.1", dashboard_address=None,
                                           memory_limit=0, silence_logs=logging.ERROR)
                self.client = Client(self._local)
            else:
                self.client = Client(self.spec.scheduler, timeout=30)
        except (OSError, TimeoutError) as error:
            self.__exit__(None, None, None)
            raise ClusterProblem(f"cannot reach the Dask scheduler at {self.spec.describe()}: {error}") from None
        return self

    def __exit__(self, *exc) -> None:
        if self.client is not None:
            self.client.close()
        if self._local is not None:
            self._local.close()

    def prepare(self, user: str | None, say=print) -> dict:
        """Check that every worker grades like this machine, warm their caches; this machine's environment.

        Raises ClusterProblem naming each worker that differs. Workers that join later are checked
        by each task they run (grade_parcel), and grade with a cold cache if nothing warmed it.
        """
        here = environment(None, None)
        here["problem"] = ""  # the client grades nothing: its own sandbox does not matter
        try:
            workers = self.client.run(settled_environment, self.spec.isolation, user)
        except Exception as error:  # noqa: BLE001 - a worker without the grader, a lost connection
            raise ClusterProblem(f"the Dask workers cannot run the grader ({type(error).__name__}: {error}); "
                                 f"install this repository on every worker: {INSTALL_HINT}") from None
        bad = [f"{address} ({env['host']}): {'; '.join(differences(here, env))}"
               for address, env in sorted(workers.items()) if differences(here, env)]
        if bad:
            raise ClusterProblem("these Dask workers would not grade like this machine:\n  " + "\n  ".join(bad))
        self.known_workers = set(workers)
        if not workers:
            say(f"grader: no Dask worker at {self.spec.describe()} yet: submissions wait until one joins")
            return here
        hosts = sorted({env["host"] for env in workers.values()})
        modes = sorted({env["isolation"] for env in workers.values()})
        say(f"grader: grading on {self.spec.describe()}: {workers_text(len(workers))} on {', '.join(hosts)}; "
            f"isolation {', '.join(modes)}")
        if self.spec.warm and self.spec.scheduler:  # a local cluster shares the cache this machine warmed
            say("grader: warming the compilation cache on each worker machine (once per version of the checks)")
            self.client.run(_warm_here)  # workers on one machine build it once (warming.build locks)
        return here

    def grade(self, submissions: list[Submission], exercises: tuple[Exercise, ...], limits: Limits,
              fingerprint: str, previous: dict[str, dict], regrade: bool, user: str | None,
              client_env: dict, say: Callable[[str], None] = print) -> Iterator[Outcome]:
        """Each submission's outcome, as it arrives; at most a few tasks per worker thread in flight.
        Workers joining or lost, and a wait with none connected, are said as they happen."""
        watch = WorkerWatch(self.client.nthreads, self.spec.describe(), say, known=self.known_workers)
        outcomes = self._grade(submissions, exercises, limits, fingerprint, previous, regrade, user, client_env)
        left = [len(submissions)]

        def waiting() -> int:
            return left[0]

        with watch.running(waiting):
            for outcome in outcomes:
                left[0] -= 1
                yield outcome

    def _grade(self, submissions: list[Submission], exercises: tuple[Exercise, ...], limits: Limits,
               fingerprint: str, previous: dict[str, dict], regrade: bool, user: str | None,
               client_env: dict) -> Iterator[Outcome]:
        from distributed import as_completed

        todo = []
        for submission in submissions:
            try:
                digest = submission_hash(submission, exercises, fingerprint, limits)
            except Exception:  # noqa: BLE001 - grade_one turns it into an error row, as locally
                digest = None
            last = previous.get(submission.name)
            if digest is not None and last and not regrade and last.get("submission_hash") == digest:
                yield Outcome(submission, last, reused=True)
            else:
                todo.append((submission, digest))
        pending = iter(todo)
        again: list = []  # submissions whose result a lost worker took with it: graded once more first
        tries: dict[str, int] = {}
        running = as_completed()
        futures: dict = {}

        def top_up() -> Iterator[Outcome]:
            threads = sum(self.client.nthreads().values())
            while len(futures) < max(2, 2 * threads):
                submission, digest = again.pop(0) if again else next(pending, (None, None))
                if submission is None:
                    return
                try:
                    parcel = pack(submission)
                except Exception:  # noqa: BLE001 - unreadable here: grade it here, which says why
                    record, _ = grade_one(submission, exercises, limits, fingerprint, None, True, user)
                    yield Outcome(submission, record)
                    continue
                payload = self.client.scatter(parcel, hash=False) if len(parcel.data) > LARGE_PARCEL else parcel
                future = self.client.submit(grade_parcel, payload, exercises, limits, client_env, user,
                                            self.spec.isolation, key=f"grade-{submission.name}-{uuid.uuid4().hex[:8]}",
                                            retries=TASK_RETRIES, pure=False)
                futures[future] = (submission, digest)
                running.add(future)

        yield from top_up()
        while futures:
            future = next(running)
            submission, digest = futures.pop(future)
            if future.status == "finished":
                record = future.result()
                if digest is not None:
                    record["submission_hash"] = digest  # the client's view decides what a rerun skips
                yield Outcome(submission, record)
            elif future.status != "error" and tries.get(submission.name, 0) < TASK_RETRIES:
                tries[submission.name] = tries.get(submission.name, 0) + 1
                again.append((submission, digest))  # ended without a result or an error: its worker was lost
            else:
                yield Outcome(submission, None, problem=_why_not_graded(future))
            future.release()
            yield from top_up()


def _warm_here() -> str:
    """On a worker: build this machine's warm compilation cache unless it is there (grader.engine.warm)."""
    from grader.engine import warming

    folder = warming.build(say=lambda line: None)
    return str(folder or "")


def _why_not_graded(future) -> str:
    from distributed import KilledWorker

    try:
        error = future.exception()
    except Exception as lost:  # noqa: BLE001 - cancelled: the scheduler or the connection went away
        return f"the cluster lost it ({type(lost).__name__}: {lost})"
    if isinstance(error, KilledWorker):
        return ("every Dask worker that tried to grade it died (killed, out of memory or its machine "
                "gone); not graded, run the batch again")
    if error is None:
        return (f"the cluster lost its result each time it was graded (the task ended {future.status}); "
                "run the batch again")
    return f"{type(error).__name__}: {error}"
