"""How many times XLA compiled, and proof that a function is compiled at all."""

from __future__ import annotations

import contextlib
import os
import sys
import types
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import chex
import jax

from grader.checks import site
from grader.checks.core import DOCS, KataFailure, fail, sentence
from grader.checks.programs import all_eqns, assert_computes, program_of

COMPILE_EVENT = "/jax/core/compile/backend_compile_duration"

# jnp functions are jitted inside JAX, so an eager `jnp.sum(x)` compiles a program (`jit(_reduce_sum)`)
# just as the learner's own jitted function does, and an eager `x + 1` compiles the one-primitive
# program `jit(add)`. What tells them apart is the program compiled: which function was traced for it
# (one of JAX's own, or the learner's), and whose code its nested programs were traced from. Never
# which JAX file the call entered through: any JAX function (`jax.tree_util.tree_map`) can call the
# learner's jitted function.
JAX_DIR = os.path.dirname(jax.__file__)
_JAX_SRC = os.path.join(JAX_DIR, "_src") + os.sep
_PJIT_FILE = os.path.join(_JAX_SRC, "pjit.py")
_DISPATCH_FILE = os.path.join(_JAX_SRC, "dispatch.py")


def is_eager(frame: Any) -> bool:
    """Whether the compile happening under `frame` serves an eager op, not a jitted function.

    Decided from the program being compiled, found on the stack: the function of the innermost
    jitted call that is compiling (pjit's `cache_miss`) and the jaxpr traced for it
    (`_pjit_call_impl_python`). Eager when that function is one of JAX's own (the one-primitive
    program JAX builds to apply a primitive, `jit(add)`; a jitted function of JAX's modules,
    `jnp.sqrt` = `jit(sqrt)`) and none of its equations, nested ones included, was made by code
    outside JAX that JAX called and that has returned since (a `lax.cond`/`lax.scan` applied eagerly
    carries the learner's branches and body; `jnp.piecewise` traces the learner's functions): judged
    from the equations' own tracebacks, never from a function's recorded name or file. Every other
    compile is the learner's: a function they jitted, however it was called, an ahead-of-time
    `.lower().compile()`, a pmap.
    """
    fun = jaxpr = None
    start = frame
    while frame is not None:
        code = frame.f_code
        if code.co_filename == _PJIT_FILE:
            if code.co_name == "_pjit_call_impl_python" and jaxpr is None:
                jaxpr = frame.f_locals.get("jaxpr")
            elif code.co_name == "cache_miss":
                fun = frame.f_locals.get("fun")
                break
        frame = frame.f_back
    if fun is None or not (_jax_primitive_program(fun) or _jax_own_jitted(fun)):
        return False
    return not _traces_code_outside_jax(jaxpr, start)


def _jax_primitive_program(fun: Any) -> bool:
    """Whether `fun` is the function JAX jits to apply one primitive eagerly (dispatch's `prim_fun`).
    A plain function only: nothing else is asked for an attribute (the witness judges with this, and
    an object's own attribute could run the submission's code there)."""
    if type(fun) is not types.FunctionType:
        return False
    code = fun.__code__
    return code is not None and code.co_filename == _DISPATCH_FILE and code.co_name == "prim_fun"


def _jax_own_jitted(fun: Any) -> bool:
    """Whether `fun` is the body of one of JAX's own module-level jitted functions (`jnp.sqrt` is
    `jit(sqrt)`), not a function the caller jitted itself (`jax.jit(jnp.mean)` is the caller's)."""
    if type(fun) is not types.FunctionType or not fun.__code__.co_filename.startswith(_JAX_SRC):
        return False
    module_name, name = fun.__module__, fun.__name__
    if type(module_name) is not str or type(name) is not str:
        return False
    module = sys.modules.get(module_name)
    wrapper = vars(module).get(name) if type(module) is types.ModuleType else None
    for _ in range(3):  # a custom_jvp (jax.nn.relu) wraps the jitted function in turn
        if isinstance(wrapper, jax.numpy.ufunc):  # jnp.add: a ufunc object around `jit(add)`
            wrapper = wrapper._func
        if wrapper is None or wrapper is fun:
            return False
        if getattr(wrapper, "__wrapped__", None) is fun:
            return True
        wrapper = getattr(wrapper, "__wrapped__", None)
    return False


def _codes_on(frame: Any) -> set[Any]:
    """The code objects of `frame` and every frame it was called from."""
    codes = set()
    while frame is not None:
        codes.add(frame.f_code)
        frame = frame.f_back
    return codes


def _ran_inside_jax(traceback: Any, outside_jax: Any, compiling: set[Any]) -> bool:
    """Whether code outside JAX made this equation, or called what made it, and has returned since:
    a frame of its traceback outside JAX whose code is not on the stack of the compile now. The
    caller of an eager op is on that stack (the op traces and compiles within its call), and so is a
    function of the caller's that JAX is calling back right now (`tree_map`); a branch or a loop body
    traced before the op compiled, or a function JAX's code was handed and ran while tracing, is not.
    JAX keeps a traceback's innermost frames only (`jax_traceback_in_locations_limit`), which is
    where code that ran inside JAX's call sits."""
    return any(outside_jax(code.co_filename) and code not in compiling for code in traceback.raw_frames()[0])


def _outside_jax(filename: str) -> bool:
    return not filename.startswith(JAX_DIR)


def _traces_code_outside_jax(closed: Any, frame: Any) -> bool:
    """Whether the program, or a program nested in it (a branch, a loop body), has an equation that
    code outside JAX made while JAX was running it (see `_ran_inside_jax`): read from each equation's
    own traceback, whose code objects an answer cannot dress up (a function's recorded name and file,
    `functools.wraps`, follow `__wrapped__`). Without the jaxpr (not found on the stack) nothing proves
    it is JAX's own."""
    if closed is None:
        return True
    try:
        compiling = _codes_on(frame)
        todo = [getattr(closed, "jaxpr", closed)]
        while todo:
            jaxpr = todo.pop()
            for eqn in jaxpr.eqns:
                traceback = getattr(eqn.source_info, "traceback", None)  # None: made by JAX's own passes
                if traceback is not None and _ran_inside_jax(traceback, _outside_jax, compiling):
                    return True
                todo += [getattr(sub, "jaxpr", sub) for sub in jax.extend.core.jaxprs_in_params(eqn.params)]
    except Exception:  # noqa: BLE001 - a program that cannot be read is not proven to be JAX's own
        return True
    return False


@dataclass
class CompileLog:
    """XLA compilations seen inside a `count_compiles` block.

    `names` are the programs counted: compiled functions (`jit(scale)`), not the
    little programs JAX compiles for eager operations (`jnp.ones`, `x + 1`
    outside jit), which `eager` lists. `signatures[i]` is what program
    `names[i]` was compiled for: the (shape, dtype name) of each of its inputs
    (None if JAX did not report it), e.g. `(((128,), "float32"), ((), "int32"))`.
    It shows what reached the compiled code: padded buckets, or only a scalar
    the host already computed. `outputs[i]` are the (shape, dtype name) of its
    results and `primitives[i]` the primitive names of its program, nested ones
    included (None if not seen): what the compiled code did with its inputs,
    or whether it handed them to a host callback; `counts[i]` how many
    equations of each primitive it holds. `eager_primitives[i]` are those of
    the program compiled for eager operation `eager[i]`, `eager_signatures[i]`
    its input types.
    """

    name: str | None
    names: list[str] = field(default_factory=list)
    eager: list[str] = field(default_factory=list)
    eager_primitives: list[frozenset[str] | None] = field(default_factory=list)
    eager_signatures: list[Any] = field(default_factory=list)
    signatures: list[tuple[tuple[tuple[int, ...], str], ...] | None] = field(default_factory=list)
    outputs: list[tuple[tuple[tuple[int, ...], str], ...] | None] = field(default_factory=list)
    primitives: list[frozenset[str] | None] = field(default_factory=list)
    counts: list[Counter | None] = field(default_factory=list)

    def add(self, fun_name: str, signature: Any, body: tuple[Any, Any] | None) -> None:
        """One counted program: its name, input types and (output types, (primitive name, number of
        its equations) pairs)."""
        self.names.append(fun_name)
        self.signatures.append(signature)
        self.outputs.append(None if body is None else body[0])
        counts = None if body is None else Counter({str(name): int(n) for name, n in body[1]})
        self.primitives.append(None if counts is None else frozenset(counts))
        self.counts.append(counts)

    def add_eager(self, fun_name: str, body: tuple[Any, Any] | None, signature: Any = None) -> None:
        """One program compiled for an eager operation: its name, the primitives it holds, its inputs."""
        self.eager.append(fun_name)
        self.eager_primitives.append(None if body is None else frozenset(str(name) for name, _ in body[1]))
        self.eager_signatures.append(signature)

    @property
    def count(self) -> int:
        return len(self.names)


def _matches(fun_name: str, wanted: str | None) -> bool:
    return wanted is None or fun_name in (wanted, f"jit({wanted})")


def compile_body_reader() -> Callable[[Any], tuple[Any, Any] | None]:
    """A reader of the program a compile event is for, from the compile's own stack: (its input types,
    (its output types, (primitive name, number of its equations) pairs)), read from the jaxpr that
    pjit's `_pjit_call_impl_python` compiles, the innermost on the stack, as lowering prunes it (dead
    code and unused inputs dropped unless jit keeps them); None where no such frame is
    (a `.lower().compile()` ahead of time). Everything it calls is bound now: the witness reads each
    compile with it, so nothing the submission can reach (a logging filter's state, a module's name)
    stands between the compile and what the record says it ran."""
    from jax._src.interpreters import pxla

    pjit_file, counter, walk, tuple_, str_, sorted_ = _PJIT_FILE, Counter, all_eqns, tuple, str, sorted
    dce = pxla._dce_jaxpr  # what lowering compiles: dead code and unused inputs dropped, as jit asked

    def types_of(avals: Any) -> tuple:
        return tuple_((tuple_(a.shape), str_(a.dtype)) for a in avals)

    def body_of(frame: Any, /) -> tuple[Any, Any] | None:
        for _ in range(96):
            if frame is None:
                return None
            code = frame.f_code
            if code.co_filename == pjit_file and code.co_name == "_pjit_call_impl_python":
                found = frame.f_locals
                try:
                    closed = dce(found["jaxpr"], found["keep_unused"], found["donated_invars"])[0]
                    counts = counter(eqn.primitive.name for eqn in walk(closed.jaxpr))
                    return types_of(closed.in_avals), (types_of(closed.out_avals), tuple_(sorted_(counts.items())))
                except Exception:  # noqa: BLE001 - an unexpected program only loses what it did
                    return None
            frame = frame.f_back
        return None

    return body_of


_OPEN_LOGS: list[CompileLog] = []  # the count_compiles blocks open now


def note_compiles(events: list[tuple[str, bool, Any, Any]]) -> None:
    """Compiles that happened where the exercise's code runs, in another process: (program name,
    whether it served an eager operation, its input types, its (output types, primitive names)), into
    every open `count_compiles` block."""
    for log in _OPEN_LOGS:
        for fun_name, eager, signature, body in events:
            if eager:
                log.add_eager(fun_name, body, signature)
            elif _matches(fun_name, log.name):
                log.add(fun_name, signature, body)


@contextlib.contextmanager
def count_compiles(name: str | None = None) -> Iterator[CompileLog]:
    """Count XLA compilations of compiled functions in the block.

    Args:
      name: only count programs of this Python function name (`"scale"`
        matches JAX's `jit(scale)`).

    Compiles made for eager operations are kept apart (`log.eager`), so a
    budget counts the learner's programs whatever the check does around them.
    A persistent-cache hit still counts: JAX reports the compile event either
    way, so the count measures retracing, not cache temperature.
    """
    log = CompileLog(name)

    def listener(event: str, duration: float, eager_under: Any = is_eager, read: Any = compile_body_reader(), /,
                 **kwargs: Any) -> None:
        if event != COMPILE_EVENT:
            return
        fun_name = str(kwargs.get("fun_name", ""))
        frame = sys._getframe(1)  # bound: a frame is never handed to a name looked up
        signature, body = read(frame) or (None, None)
        if eager_under(frame):
            log.add_eager(fun_name, body, signature)
        elif _matches(fun_name, name):
            log.add(fun_name, signature, body)

    jax.monitoring.register_event_duration_secs_listener(listener)
    _OPEN_LOGS.append(log)
    try:
        yield log
    finally:
        _OPEN_LOGS.remove(log)
        jax.monitoring.unregister_event_duration_listener(listener)


def clear_caches() -> None:
    """Empty JAX's in-memory caches where the exercise runs, so a count starts from nothing.

    A count that must see every program compile (one per bucket, per shape) depends otherwise on what
    earlier checks compiled. A fresh import does not reset it: a new `jax.jit` of a function JAX already
    traced (`jax.jit(jnp.nanmean)`) reuses that function's cached programs without compiling. Under the
    grader the exercise's JAX, and its caches, live in the subject: the examiner keeps its own, which
    compile only its own programs (the expected values, the traces it runs), never the exercise's.
    """
    where = site.current()
    if where is None:
        jax.clear_caches()
    else:
        where.run(jax.clear_caches)


RECOMPILE_CAUSES = (
    "each compile means JAX traced again because something its cache keys on changed: "
    "an input shape or dtype, a Python int/float switching (weak types), the value of a "
    "static argument, or the function object itself (a new jax.jit/lambda per call)"
)
NOT_COMPILED = (
    "nothing was compiled, so the budget proves nothing: the work must run in a function "
    "compiled with jax.jit (not NumPy on the host, not op-by-op jnp calls)"
)


def assert_compiles(log: CompileLog, *, what: str, calls: str, expected: int | None = None,
                    at_most: int | None = None, warm_up: CompileLog | None = None,
                    why: str = "", doing: tuple[str, ...] = ()) -> None:
    """The block compiled exactly `expected` (or at most `at_most`) times, and something was compiled.

    A budget can be met by doing nothing: an answer with no jit compiles zero
    times. So `at_most` also demands at least one compile in the block, and
    `expected=0` (no recompile) demands a `warm_up` log, from the calls before
    the block, that compiled at least once.

    Args:
      log: from `count_compiles`.
      what: the function, e.g. "scale()".
      calls: how the calls in the block differed, e.g. "5 calls with the same shapes".
      warm_up: the `count_compiles` log of the first call(s), when `expected=0`.
      why: the idea and the fix for this exercise; the generic causes are used otherwise.
      doing: primitives the work itself makes (e.g. `("gather", "log")`): a compile proves the
        work was compiled only when its program holds every one of them. A jit of something else
        beside work run op by op (its compiles filed as eager) is no proof.
    """
    __tracebackhide__ = True
    if (expected is None) == (at_most is None):
        raise TypeError("assert_compiles needs exactly one of expected= or at_most=")
    if expected == 0 and warm_up is None:
        raise TypeError("assert_compiles(expected=0) needs warm_up=: the log of a call that compiled")
    proof = warm_up if expected == 0 else log
    if proof.count == 0:
        fail(sentence(f"{what} compiled nothing for "
                      f"{'its first call' if expected == 0 else calls}: {NOT_COMPILED}.",
                      f"See {DOCS}/jit-compilation.html"), "not-jitted")
    if doing and not any(held is not None and set(doing) <= held for held in proof.primitives):
        fail(sentence(f"{what} compiled {proof.count} program(s) for "
                      f"{'its first call' if expected == 0 else calls}, but none of them does the work "
                      f"(none holds {', '.join(doing)}): the work ran op by op outside any compiled "
                      f"program, and what was compiled is something else. The work must run in the function "
                      f"compiled with jax.jit.",
                      f"See {DOCS}/jit-compilation.html"), "not-jitted")
    n = log.count
    if (expected is not None and n == expected) or (at_most is not None and n <= at_most):
        return
    want = f"exactly {expected}" if expected is not None else f"at most {at_most}"
    times = "once" if n == 1 else f"{n} times"
    too_few = expected is not None and n < expected
    reason = ("fewer compiles than calls that need a new program: is the function still "
              "wrapped in jax.jit, and does each new shape reach it?") if too_few else (why or RECOMPILE_CAUSES)
    fail(f"{what} compiled {times} for {calls}; expected {want}. {reason.rstrip('.')}. "
         f"See {DOCS}/jit-compilation.html", "not-jitted" if too_few else "recompiles")


def assert_one_program(fn: Callable, calls: list[tuple], *, what: str, calls_text: str,
                       expected: list | None = None, rtol: float = 1e-5, atol: float = 1e-6, why: str = "") -> None:
    """One program serves every call in `calls` (argument tuples whose shapes and dtypes agree): the
    program traced for each is the same, equations, literals and constants, so JAX compiles it once.

    Traced and compared where the check runs: under the grader the examiner reads the subject's
    traces itself, so this needs no compile report from the subject. With `expected` (one value
    per call), each traced program must also compute its call's value (`assert_computes`), so one
    program handed in for calls that need different ones fails. What a trace cannot show is a
    new function object per call (a jax.jit built inside the call): `assert_compiles` and
    `assert_reuses_program` count those compiles.
    """
    __tracebackhide__ = True
    programs = [program_of(fn, *args, what=what) for args in calls]
    for program, want in zip(programs, expected or ()):
        assert_computes(program, want, what=what, rtol=rtol, atol=atol)
    first = programs[0]
    other = next((p for p in programs[1:] if not p.same_as(first)), None)
    if other is None:
        return
    kinds = len({p.text() for p in programs})
    ours, theirs = first.text().splitlines(), other.text().splitlines()
    line = next(((a.strip(), b.strip()) for a, b in zip(ours, theirs) if a != b), None)
    where = (f"one has `{line[0]}` where another has `{line[1]}`" if line else
             "they hold different constants")
    fail(sentence(f"{what} traces to {max(kinds, 2)} different programs for {calls_text}: {where}. JAX compiles "
                  f"each different program on its own, so these calls compile again.", why or RECOMPILE_CAUSES,
                  f"See {DOCS}/jit-compilation.html"), "recompiles")


def assert_reuses_program(call: Callable[[], Any], *, what: str, calls: str, times: int = 2,
                          why: str = "") -> Any:
    """After one call of `call()` (which may compile), `times` more calls compile nothing.

    For answers whose work is compiled by jit or pmap: a new jitted or pmapped
    function per call (of a lambda, a closure, a functools.partial) is new to
    JAX's cache and compiles again every time, with the same values. This does
    not prove that anything is compiled (other checks do that): the first call
    may find its program already cached by an earlier check. Returns the last
    call's result.
    """
    __tracebackhide__ = True
    call()
    with count_compiles() as log:
        for _ in range(times):
            out = call()
    if log.count:
        fail(sentence(f"{what} compiled {log.count} time(s) for {calls}; expected no new compile. "
                      f"jit and pmap cache a program per function object: a jax.jit or jax.pmap of a "
                      f"lambda, a closure or a functools.partial built inside the call is a new function "
                      f"each time, so every call traces and compiles again.", why,
                      f"See {DOCS}/jit-compilation.html"), "recompiles")
    return out


@contextlib.contextmanager
def max_traces(fn: Callable, n: int, *, what: str, why: str = "") -> Iterator[Callable]:
    """Yield `fn` wrapped to allow at most `n` traces (chex.assert_max_traces); hand it to the answer
    inside the block. A trace beyond `n` fails with a lesson, whatever program it was for.

    Compile counts see programs; this sees the Python function being traced
    again, which is what an export (traced once, then called for ever) or a
    cache that misses does. chex's trace counter is global, keyed on the
    function's code and where it was wrapped, so it is cleared on the way in.
    """
    __tracebackhide__ = True

    def traced(*args: Any, **kwargs: Any) -> Any:  # chex reads its wrappee's source: this one has it
        return fn(*args, **kwargs)

    traced.__name__ = getattr(fn, "__name__", "traced")
    where = site.current()
    chex.clear_trace_counter()
    if where is not None:  # the wrapper is handed to the exercise: it counts where the exercise runs
        where.run(chex.clear_trace_counter)
    try:
        yield chex.assert_max_traces(traced, n)
    except AssertionError as error:
        if isinstance(error, KataFailure) or "is traced >" not in str(error):
            raise
        name = getattr(fn, "__name__", "the function")
        fail(sentence(f"{what} traced {name} more than {n} time{'s' if n != 1 else ''}: JAX ran its Python "
                      f"body again to build another program, where the one it had should have served.",
                      why or f"{RECOMPILE_CAUSES[0].upper()}{RECOMPILE_CAUSES[1:]}.",
                      f"See {DOCS}/jit-compilation.html"), "repeated-work")
    finally:
        chex.clear_trace_counter()
        if where is not None:
            where.run(chex.clear_trace_counter)
