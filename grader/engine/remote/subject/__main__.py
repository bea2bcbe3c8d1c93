"""`python -I -B -m grader.engine.remote.subject --devices N --submission DIR --fds IN,OUT,AUDIT`:
start JAX, import what the requests need, install the audit hook and serve. (Under `grader grade` a
subject is forked from the submission's subject host instead, and starts at `serve`: see host.py.)"""

from __future__ import annotations

import argparse
import _thread
import os
import sys
import threading
from pathlib import Path
from typing import Any, Callable

from grader.engine.remote.subject.server import Server, types_loaded_now
from grader.engine.remote.subject.standins import PRIVATE_MODULES


def _listen_to_compiles() -> tuple[Callable[[], None], Callable[[], None], Callable[[], tuple], Callable[[], None], Any]:
    """Note every XLA compile: name, eager or not, input types, for the next reply to deliver.

    JAX keeps its listeners in a list any code can read, so this one holds nothing that leads to the
    server or to its records (a submission that reached them could rewrite every reply): each
    compile, on whatever thread it ran (a thread pool's too), is told to the audit hook's witness,
    which judges eager or not on the compile's own stack and keeps the record and the counts out of
    the submission's reach until the server takes them into a reply.

    What a reply delivers is checked against counts the submission cannot wind back unseen: the
    misses of JAX's compilation cache (`pxla._cached_compilation`, one per program XLA compiles) and
    the witness's. Returns (the check after every return from submission code; the same after the
    grader's own `jax.clear_caches`, which sets the misses back to 0; the records for a reply; the
    start of the count, once the audit hook is in place; the listener's code, the only code the hook
    takes a compile event from)."""
    import jax
    from grader.checks import compiles
    from grader.runtime import witness

    # What it reads is bound here, positional-only, once: a module's name looked up at each compile
    # could be swapped for the length of one request (an event name that equals nothing) and back,
    # unseen by the tripwires. What the compile ran (its input types, its equations) the witness reads
    # from the compile's own stack: nothing here holds it.
    def listener(event: str, duration: float, compile_event: str = str(compiles.COMPILE_EVENT),
                 witnessed: Any = witness.note_compile, /, **kwargs: Any) -> None:
        if event != compile_event:
            return
        witnessed((str(kwargs.get("fun_name", "")), False, None, None))  # eager or not, and what: the witness judges

    jax.monitoring.register_event_duration_secs_listener(listener)
    return (*_compile_count_check(), listener.__code__)


_COMPILE_ENTRIES = ("compile", "compile_and_load", "compile_ifrt_program", "compile_and_load_ifrt_program",
                    "deserialize_executable")


def _guard_backend_compiles() -> list[Any]:
    """Put a Python function in front of each of the backend client's entries that compile a program
    (or load a compiled one), before the submission is imported: called from anywhere but JAX's own
    compile (`pxla._cached_compilation`, which reports every compile to the listeners), it ends the
    subject, so no program is compiled where the witness does not hear of it (a program compiled
    through `jax.extend.backend.get_backend().compile_and_load` and run with `execute_sharded`).
    Each C entry is one of its wrapper's code's constants (as `hostreads` wraps jaxlib's reading
    entries): only the wrapper's `__code__`, whose reading the hook refuses, leads there. Returns the
    wrappers, for the hook to guard."""
    import builtins
    import gc
    import types

    from jax._src.interpreters import pxla
    from jax._src.lib import _jax

    from grader.checks.values import trampoline
    from grader.engine.remote import audit

    compiling = next((f.__code__ for f in gc.get_referents(pxla._cached_compilation)
                      if isinstance(f, types.FunctionType) and f.__name__ == "_cached_compilation"), None)
    if compiling is None:  # a JAX laid out otherwise: nothing known to let through
        return []
    getframe, raise_event, refuse = sys._getframe, sys.audit, audit.REFUSE

    def guarded(entry: Any, name: str) -> Any:
        def compile_entry(self: Any, /, *args: Any, **kwargs: Any) -> Any:
            frame = getframe(1)
            while frame is not None and frame.f_code is not compiling:
                frame = frame.f_back
            if frame is None:
                raise_event(refuse, f"compiles a program through JAX's backend client itself ({name}), where "
                                    f"no compile is reported, which an exercise never needs")
            return entry(self, *args, **kwargs)
        return compile_entry

    def template(self: Any, /, *args: Any, **kwargs: Any) -> Any: ...

    wrappers = []
    for name in _COMPILE_ENTRIES:
        entry = vars(_jax.Client).get(name)
        if entry is None or isinstance(entry, types.FunctionType):
            continue
        code = trampoline(template.__code__, guarded(entry, name)).replace(co_name=name, co_qualname=name)
        wrappers.append(types.FunctionType(code, {"__builtins__": builtins}, name))
        setattr(_jax.Client, name, wrappers[-1])
    return wrappers


def _compile_count_check() -> tuple[Callable[[], None], Callable[[], None], Callable[[], tuple], Callable[[], None]]:
    """Refuse, after submission code returns, when JAX's compilation cache was replaced or cleared by
    the submission (what it hid before the clear is unknowable), or when XLA compiled more programs
    than the witness heard of (the listeners swapped out during a call); and, as each reply takes its
    records, when the replies so far deliver fewer records than XLA compiled programs (records taken
    out of the reply) or more (records made up, to cover ones taken out later), or fewer of the
    learner's programs than the witness judged so. Everything it reads is bound now: the cache's own
    `cache_info`, the module entry JAX compiles through, `sys.audit`, the witness's count."""
    from jax._src.interpreters import pxla

    from grader.engine.remote import audit
    from grader.runtime import witness

    space, cache = vars(pxla), pxla._cached_compilation
    info, raise_event, refuse, get, counts = cache.cache_info, sys.audit, audit.REFUSE, dict.get, witness.compile_counts
    since, length, kind = witness.compiles_since, len, type
    # XLA's compiles since the start, the misses at the last look, records delivered (all, the
    # learner's), the witness's counts at the start
    # and the place in the witness's record the next reply reads from (the witness never forgets)
    state = {"compiled": 0, "misses": info().misses, "delivered": 0, "learners": 0, "witness": counts(), "cursor": 0}

    def look(after_grader_clear: bool) -> None:
        if get(space, "_cached_compilation") is not cache:
            raise_event(refuse, "replaced JAX's compilation cache (pxla._cached_compilation), which an "
                                "exercise never needs")
        misses = info().misses
        if misses < state["misses"] and not after_grader_clear:
            raise_event(refuse, "cleared JAX's compilation caches (jax.clear_caches or a cache's "
                                "cache_clear), which an exercise never needs: the grader counts "
                                "compiles against them")
        state["compiled"] += misses if misses < state["misses"] else misses - state["misses"]
        state["misses"] = misses
        heard = counts()[0] - state["witness"][0]
        if state["compiled"] > heard:
            raise_event(refuse, f"hid {state['compiled'] - heard} XLA compiles from the grader's listener "
                                f"on JAX's compile events (the listeners were swapped out during the call), "
                                f"which an exercise never needs")

    def check() -> None:
        look(False)

    def after_grader_clear() -> None:
        look(True)

    def deliver() -> tuple:
        taken = since(state["cursor"])  # a compile on another thread after this waits for the next reply
        state["cursor"] += length(taken)
        # Exact types: anything else is not a record of the listener's, and is dropped.
        records = tuple([r for r in taken if kind(r) is tuple and length(r) == 4 and kind(r[0]) is str
                         and kind(r[1]) is bool])
        look(False)
        state["delivered"] += length(records)
        state["learners"] += length([r for r in records if not r[1]])
        learners = counts()[1] - state["witness"][1]
        if state["delivered"] > state["compiled"]:  # each record is a compile's: more is a made-up one
            raise_event(refuse, f"added compile records of its own to the grader's reply ({state['compiled']} "
                                f"XLA compiles, {state['delivered']} reported), which an exercise never needs")
        if state["compiled"] > state["delivered"] or learners > state["learners"]:
            raise_event(refuse, f"kept compiles out of the grader's reply ({state['compiled']} XLA compiles, "
                                f"{state['delivered']} reported; {learners} of the learner's programs, "
                                f"{state['learners']} reported as such), which an exercise never needs")
        return records

    def start() -> None:
        state.update(compiled=0, misses=info().misses, delivered=0, learners=0, witness=counts(),
                     cursor=length(since(0)))

    return check, after_grader_clear, deliver, start


def _threads_check(running: int) -> Callable[[], None]:
    """Refuse, after submission code returns, when more Python threads run than the subject's own: a
    thread the submission left running acts after the grader has looked (writes into an input the
    checks compared already, compiles where no request hears it). `_thread._count` counts every
    thread Python started, however it was started (threading, concurrent.futures, `_thread`); XLA's
    own threads are not among them. Bound now, like everything the check reads."""
    from grader.engine.remote import audit

    count, raise_event, refuse, threads, me = _thread._count, sys.audit, audit.REFUSE, threading.enumerate, \
        _thread.get_ident
    own = {id(thread) for thread in threads()}

    def check() -> None:
        now = count()
        if now > running:
            try:  # a Thread subclass's `name` is the submission's code: it names, it never decides
                names = sorted(str(thread.name) for thread in threads()
                               if id(thread) not in own and thread.ident != me())  # not the one answering
            except BaseException:  # noqa: BLE001
                names = []
            raise_event(refuse, f"left {now - running} thread(s) of its own running after its call returned "
                                f"({', '.join(names[:3]) or 'started with _thread'}) "
                                f"(a thread acts after the grader has looked: writes into inputs already "
                                f"compared, compiles no request hears), which an exercise never needs: "
                                f"join every thread, or use a with-block around a thread pool")

    return check


def _prepare() -> None:
    """Import now what a request may need later: after the audit hook, the grader is not importable."""
    import grader.checks  # noqa: F401
    import grader.checks.processes  # noqa: F401
    import grader.runtime.explain  # noqa: F401
    import grader.runtime.loading  # noqa: F401
    from grader.checks import compiles

    for name, module in list(sys.modules.items()):
        if name == "grader" or name.startswith("grader."):
            PRIVATE_MODULES[name] = module
    del compiles


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m grader.engine.remote.subject")
    parser.add_argument("--devices", type=int, default=8)
    parser.add_argument("--submission", required=True)
    parser.add_argument("--fds", required=True, help="requests,replies,audit")
    parser.add_argument("--census", help="the keeper's pipes: the examiner's questions,its answers (see keeper)")
    args = parser.parse_args(argv)
    requests, replies, audit_fd = (int(x) for x in args.fds.split(","))
    census = tuple(int(x) for x in args.census.split(",")) if args.census else None
    from grader.core.limits import die_with_parent

    die_with_parent()
    import_before_start()
    serve(args.devices, Path(args.submission), requests, replies, audit_fd, census)


def import_before_start() -> None:
    """What every subject imports before JAX starts (a subject host does this once for all)."""
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    import jax  # noqa: F401 - imported, not started: the multi-process checks' fork server copies this process
    import jax.ad_checkpoint  # noqa: F401 - the rest: what every subject imported before its first answer
    import jax.experimental.key_reuse  # noqa: F401
    import jax.experimental.multihost_utils  # noqa: F401

    import grader.checks  # noqa: F401 - most of what `_prepare` needs, imported while forking is safe
    import grader.engine.remote.audit  # noqa: F401
    import grader.engine.remote.tripwires  # noqa: F401
    import grader.engine.warm  # noqa: F401
    import grader.runtime.explain  # noqa: F401
    import grader.runtime.loading  # noqa: F401
    from grader.runtime.jaxsetup import import_lowering

    import_lowering()


def serve(devices: int, submission: Path, requests: int, replies: int, audit_fd: int,
          census: tuple[int, int] | None = None) -> None:
    """Fork the keeper (it watches the processes the subject starts), start JAX with `devices`, get
    ready, install the audit hook and answer requests until the examiner lets go; never returns."""
    from grader.checks import site
    from grader.engine.remote.subject import keeper
    from grader.runtime import forkserver
    from grader.runtime.jaxsetup import configure_jax, settle_after_start

    keeper.split(census, (requests, replies, audit_fd))
    site.add_protocol_folder(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # the wall: codec and server
    forkserver.start()
    keeper.trust(forkserver.server_pid())
    configure_jax(devices)
    from grader.engine.warm import maybe_record_compiles

    maybe_record_compiles()  # only in `grader warm`'s trusted run
    server = Server(submission, devices, requests, replies)
    from grader.engine.remote import audit, tripwires

    compile_count_check, server.after_grader_clear, server.deliver_compiles, start_count, listener = \
        _listen_to_compiles()
    from grader.checks import hostreads

    hostreads.install_entries()  # before the submission can hold one of jaxlib's reading entries
    compile_entries = _guard_backend_compiles()  # likewise, the backend client's compiling entries
    _prepare()
    server.trusted_types = types_loaded_now()  # before the submission is imported
    from grader.engine.remote.subject import sealing

    sealing.seal(tripwires.grader_classes())  # a method swapped and put back within a window: refused
    sealing.watch_refusals_nobody_catches()
    tripwires_check = tripwires.Tripwires.of_grader_and_jax(server).refuse_if_changed
    forkserver.listen_now()  # the grader's own thread, started before the count is taken
    threads_check = _threads_check(running=_thread._count() + 1)  # and the one `serve` answers on

    def refuse_if_changed() -> None:
        tripwires_check()
        compile_count_check()
        threads_check()

    server.refuse_if_changed = refuse_if_changed
    settle_after_start()
    audit.install(audit_fd, protected=(requests, replies, audit_fd), compile_listener=listener)
    hostreads.guard_entries()  # heard by the hook just installed
    from grader.runtime.loading import SWAPPED_FUNCTION

    for entry in compile_entries:
        sys.audit(SWAPPED_FUNCTION, entry, True)  # their code, which holds the C entries, is the grader's
    start_count()  # from here the witness's counts are the audit hook's
    server.serve()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)  # no teardown of JAX: the examiner is not waiting for it


if __name__ == "__main__":
    main()
