"""Whether calling a function runs one compiled program that does its work: `assert_jitted` reads
the function's trace (one jit or pmap call, nothing op by op around it, no host callback) and, where
the task asks for the whole work compiled, calls it on arrays too, so that a function showing a jitted
program only to a trace is seen."""

from __future__ import annotations

import contextlib
import math
from collections import Counter
from collections.abc import Callable
from typing import Any

import jax
import jax.extend

from grader.checks import site
from grader.checks.compiles import JAX_DIR, clear_caches, count_compiles
from grader.checks.core import DOCS, fail
from grader.checks.dataflow import RESHAPES
from grader.checks.hostreads import host_reads
from grader.checks.programs import CALLBACKS, all_eqns, assert_computes, program_of

_COMPILED_CALLS = {"jit", "pjit", "xla_pmap", "shard_map"}


def assert_jitted(fn: Callable, *args: Any, what: str, entirely: bool = False, allow: tuple[str, ...] = (),
                  single: bool = False, expected: Any = None, rtol: float = 1e-5, atol: float = 1e-6,
                  **kwargs: Any) -> None:
    """Calling `fn` dispatches one compiled program (a `jit`/`pmap` call), not op-by-op work, and the
    program does the work itself: it hands nothing to a host callback (`pure_callback`, `io_callback`).

    Args:
      entirely: also fail when some of the work runs eagerly around the compiled call (a small
        jitted helper with the rest of the computation op by op outside it).
      allow: with `entirely`, primitives that may still run eagerly around the program, such as
        ("stack",) for gathering a list of inputs into one array before the call.
      single: also fail when the work is split over several compiled calls (pieces chained one
        after another, a jitted function per pytree leaf), each dispatched on its own (where the
        task asks for one program, not for a jitted step called in a loop).
        With `entirely` or `single`, fn is also called on copies of the arrays, JAX's caches emptied
        where the exercise runs, and the programs compiled for that call must hold each program the
        trace dispatches: a function that shows the whole program only to a trace fails.
      expected: what fn(*args) must return. The program read here is then run where the check runs
        and must compute it (`assert_computes`): a function that shows a jitted program only when
        traced, and computes its values another way when called, fails.
    """
    __tracebackhide__ = True
    program = program_of(fn, *args, what=what, **kwargs)
    jaxpr = program.jaxpr
    top = {eqn.primitive.name for eqn in jaxpr.jaxpr.eqns}
    if not top & _COMPILED_CALLS:
        fail(f"{what} runs op by op (eagerly): it is not compiled as one program. "
             f"See {DOCS}/jit-compilation.html", "not-jitted")
    called_back = sorted({eqn.primitive.name for eqn in all_eqns(jaxpr)} & CALLBACKS)
    if called_back:
        fail(f"{what} is jitted, but its program hands the work to the host ({', '.join(called_back)}): "
             f"Python/NumPy computes the result on the CPU host in the middle of the program, and the "
             f"compiled code only ships the data there and back. Write the computation with "
             f"jax.numpy/lax inside the jitted function. See {DOCS}/jit-compilation.html", "host-transfer")
    eager = sorted(top - _COMPILED_CALLS - set(allow))
    programs = [eqn.primitive.name for eqn in jaxpr.jaxpr.eqns if eqn.primitive.name in _COMPILED_CALLS]
    if single and len(programs) > 1:
        fail(f"{what} dispatches {len(programs)} compiled programs per call, not one: each jitted piece "
             f"(a step of a chain, a function per pytree leaf) is compiled and dispatched on its own, so "
             f"the compiler never sees the whole computation to fuse it. Put all of it inside the one "
             f"function that jax.jit compiles (jax.tree.map works inside jit). "
             f"See {DOCS}/jit-compilation.html", "not-jitted")
    if entirely and eager:
        fail(f"{what} runs part of its work op by op, outside its compiled program: {', '.join(eager)} "
             f"ran eagerly around the jitted call, each dispatched on its own, every call, so the "
             f"compiler never sees the whole computation. All of it belongs inside the function that "
             f"jax.jit compiles. See {DOCS}/jit-compilation.html", "not-jitted")
    if expected is not None:
        assert_computes(program, expected, what=what, rtol=rtol, atol=atol)
    if entirely or single:
        _assert_called_as_traced(fn, args, kwargs, jaxpr, what=what, nothing_else=True)


def _library_call(eqn: Any) -> bool:
    """A jitted function of JAX's own library (jnp.pad, jnp.where...) called outside the answer's
    programs: JAX runs it as an eager operation, set aside from the answer's compiles. pmap's own
    wrapper is JAX's too, but holds the answer's per-device program."""
    body = eqn.params.get("jaxpr")
    info = getattr(getattr(getattr(body, "jaxpr", body), "debug_info", None), "func_src_info", None)
    return (eqn.primitive.name in ("jit", "pjit") and JAX_DIR in str(info or "")
            and not any(inner.primitive.name in ("shard_map", "xla_pmap") for inner in all_eqns(body)))


def _traced_programs(jaxpr: Any) -> list[tuple[Counter, bool]]:
    """The programs a traced call dispatches: for each distinct compiled call at its top level, how
    many equations of each primitive it holds, nested ones included (compiled calls themselves left
    out: JAX inlines them), and whether JAX compiles it whole: a shard_map called outside jit runs its
    body's operations one by one, each compiled on its own."""
    from jax._src.interpreters import partial_eval as pe

    found: dict[tuple, tuple[Counter, bool]] = {}
    for eqn in jaxpr.jaxpr.eqns:
        if eqn.primitive.name in _COMPILED_CALLS and not _library_call(eqn):
            subs = [getattr(sub, "jaxpr", sub) for sub in jax.extend.core.jaxprs_in_params(eqn.params)]
            # Without what computes nothing the outputs need: JAX drops it before it compiles a call.
            live = [pe.dce_jaxpr(sub, [True] * len(sub.outvars))[0] for sub in subs]
            held = Counter(inner.primitive.name for sub in live for inner in all_eqns(sub)
                           if inner.primitive.name not in _COMPILED_CALLS)
            whole = eqn.primitive.name != "shard_map"
            found.setdefault((tuple(sorted(held.items())), whole), (held, whole))
    return list(found.values())


def assert_called_as_traced(fn: Callable, *args: Any, what: str, program: Any = None, nothing_else: bool = False,
                            **kwargs: Any) -> None:
    """fn(*args), called on arrays, compiles every program its trace dispatches (a jit, pmap or
    shard_map call), whole. A check that reads fn's trace (where its work runs, which collective
    combines it) judges what the call does only if the call runs that trace: a function that shows
    the task's program when handed tracers, and computes another way (on the host, on one device)
    when handed arrays, fails here. `program`: fn's trace on these args, if the check has it.
    `nothing_else`: the call also compiles no program of its own beside those (work the trace does not
    show, such as a gather between two stages), reads no value back to the host (a Python branch on
    the data), and runs no operation op by op that the trace does not show around them (JAX compiles each eagerly, its caches emptied: a decoy program called beside
    the real work done op by op is seen)."""
    __tracebackhide__ = True
    traced = program if program is not None else program_of(fn, *args, what=what, **kwargs)
    _assert_called_as_traced(fn, args, kwargs, traced.jaxpr, what=what, nothing_else=nothing_else)


def _assert_called_as_traced(fn: Callable, args: tuple, kwargs: dict, jaxpr: Any, *, what: str,
                             nothing_else: bool = False) -> None:
    """Called on arrays (JAX's caches emptied first, so that what the call needs is compiled and
    seen), `fn` compiles every program its trace dispatches, whole: a function that shows a jitted
    program only when it is handed tracers, and does its work another way when handed arrays (a
    smaller jitted piece with the rest op by op, several programs for one), fails."""
    __tracebackhide__ = True
    wanted = _traced_programs(jaxpr)
    if not wanted and not nothing_else:
        return
    fresh = jax.tree.map(lambda a: jax.device_put(a, a.sharding, may_alias=False)
                         if isinstance(a, jax.Array) else a, args)  # the call may donate them
    clear_caches()
    where = site.current()
    ahead = where.compiled_ahead_of_time() if where is not None else []  # the grader's record, not the call's
    if ahead:
        fail(f"{what}: the exercise compiled {', '.join(sorted(set(ahead))[:3])} ahead of time "
             f"(.lower(...).compile(), at import or in an earlier call): a kept compiled program runs "
             f"without compiling anything, whatever the function's trace shows. Calling the function must "
             f"run the programs its trace dispatches, compiled as they are called. See {DOCS}/aot.html",
             "not-jitted")
    with count_compiles() as log, (host_reads() if nothing_else else contextlib.nullcontext([])) as reads:
        jax.block_until_ready(fn(*fresh, **kwargs))
    # A program the call ran that holds a callback has the host take the values itself (a print, a record).
    host_calls = CALLBACKS | {"debug_callback", "debug_print"}
    ran = [set(counts or ()) for counts in log.counts] + [set(held or ()) for held in log.eager_primitives]
    if reads and not any(held & host_calls for held in ran):
        fail(f"{what}, called on arrays, reads values back to the host while it runs ({', '.join(reads[:3])}): "
             f"a decision made in Python on the data, or work done there, which its trace cannot show. "
             f"Calling the function and tracing it must run the same compiled computation, whatever the "
             f"inputs are. See {DOCS}/jit-compilation.html", "host-transfer")
    compiled = log.counts
    unread = [name for name, counts in zip(log.names, compiled) if counts is None]
    if unread:  # compiled ahead of time (.lower().compile()): its equations are not on the compile's stack
        fail(f"{what}, called on arrays, compiles {', '.join(unread[:3])} in a way whose program the grader "
             f"cannot read (ahead of time, with .lower().compile()): what it runs cannot be compared with "
             f"its trace. Calling the function must run the programs its trace dispatches, compiled as "
             f"they are called. See {DOCS}/jit-compilation.html", "not-jitted")
    every = set().union(*compiled)
    for held, whole in wanted:
        if any(not held - counts for counts in compiled) or (not whole and set(held) <= every):
            continue
        closest = min(compiled, key=lambda counts: sum((held - counts).values()), default=Counter())
        missing = ", ".join(f"{name} x{n}" if n > 1 else name for name, n in sorted((held - closest).items()))
        seen = (f"the {len(compiled)} program(s) JAX compiled for the call lack part of it ({missing})"
                if compiled else "JAX compiled no program of yours for the call")
        fail(f"{what}, called on arrays, does not run the program its trace shows: {seen}. Traced, it "
             f"dispatches a compiled program doing the work; handed arrays, the work ran another way (op "
             f"by op, on the host, in other programs). Calling the function and tracing it must run the "
             f"same compiled computation, whatever the inputs are: code that tells a tracer from an array "
             f"and chooses is not the task's. See {DOCS}/jit-compilation.html", "not-jitted")
    # Moves and casts JAX adds around an operation run one by one are no work of the answer's.
    # JAX's own library calls the trace shows may be compiled as programs of the answer's (jax.jit(jnp.sin)).
    shown_eager, shown_ops, inside = _eager_shown(jaxpr)
    shown = set().union(*(held for held, _ in wanted)) | _COMPILED_CALLS | RESHAPES | set(shown_ops) | inside | {
        inner.primitive.name for eqn in jaxpr.jaxpr.eqns if _library_call(eqn)
        for inner in all_eqns(eqn.params.get("jaxpr"))}
    extra = [counts for counts in compiled if set(counts) - shown]
    if nothing_else and extra:
        held = ", ".join(sorted(set(extra[0]) - shown))
        fail(f"{what}, called on arrays, compiles {len(extra)} program(s) doing work its trace does not "
             f"show ({held}): handed arrays, it does work a trace never sees. "
             f"Calling the function and tracing it must run the same compiled computation, whatever the "
             f"inputs are. See {DOCS}/jit-compilation.html", "not-jitted")
    eager = sorted({name for name, held, signature in zip(log.eager, log.eager_primitives, log.eager_signatures)
                    if name not in shown_eager and not _shown_op(held, signature, shown_ops)})
    if nothing_else and eager:
        fail(f"{what}, called on arrays, runs operations op by op that its trace does not show "
             f"({', '.join(eager[:4])}{' ...' if len(eager) > 4 else ''}): handed arrays, it works outside "
             f"its compiled program (a program called beside the real work, whose result is dropped, is "
             f"no answer). Calling the function and tracing it must run the same compiled computation, "
             f"whatever the inputs are. See {DOCS}/jit-compilation.html", "not-jitted")


_ONE_OPERATION = frozenset({"while", "scan", "cond"})  # compiled whole when run eagerly, bodies and all


def _eager_shown(jaxpr: Any) -> tuple[set[str], dict[str, set[tuple]], set[str]]:
    """What a call may compile for eager operations as its trace shows it: the names of those programs
    (JAX's own jitted library calls at the trace's top level; JAX's moves of data: a NumPy input staged
    onto a device, a pmap's result cut per device), and for each operation at the trace's top level (in
    a custom rule's body run eagerly too) the shapes of its array operands: the same operations on
    other shapes (one example at a time, in a Python loop) are not the traced ones; and the primitives
    of the loops' and branches' bodies, which run only inside the program JAX compiles for the loop or
    the choice (a loop's step run op by op, in Python's loop, is not the traced loop)."""
    names = {"jit(stage)", "jit(_multi_slice)"}
    ops: dict[str, set[tuple]] = {}
    inside: set[str] = set()  # the primitives of the loops' and branches' bodies: in their programs only

    def walk(level: Any) -> None:
        for eqn in getattr(level, "jaxpr", level).eqns:
            if eqn.primitive.name not in _COMPILED_CALLS:
                ops.setdefault(eqn.primitive.name, set()).add(_array_sizes(
                    (tuple(getattr(v.aval, "shape", ())), str(getattr(v.aval, "dtype", "")))
                    for v in eqn.invars if hasattr(v, "aval")))
                # A custom rule's call (a shard_map's body) runs eagerly op by op; a loop's or a branch's
                # body runs inside the one program JAX compiles for the loop or the choice.
                if eqn.primitive.name in _ONE_OPERATION:
                    inside.update(inner.primitive.name for body in jax.extend.core.jaxprs_in_params(eqn.params)
                                  for inner in all_eqns(body))
                    continue
                for sub in jax.extend.core.jaxprs_in_params(eqn.params):
                    walk(sub)
            elif _library_call(eqn):
                names.add(f"jit({eqn.params.get('name')})")

    walk(jaxpr)
    return names, ops, inside


def _array_sizes(operands: Any) -> tuple:
    """How many values each array operand holds, and of which dtype, in order of size (scalars aside):
    an operation batched with its batch axis elsewhere is the same work, one example's share is not,
    nor the same operation on operands cast to another dtype first."""
    return tuple(sorted((math.prod(shape), dtype) for shape, dtype in operands if shape))


def _shown_op(held: frozenset[str] | None, signature: Any, ops: dict[str, set[tuple]]) -> bool:
    """Whether an eager program (its primitives, its input types) is one the trace shows: casts and
    moves of any shape (a Python number converted on the way in), or an operation the trace's top level
    runs on arrays of the same shapes and dtypes."""
    if held is None:
        return False
    work = held - RESHAPES
    if not work:
        return True
    if signature is None:
        return work <= ops.keys()
    sizes = _array_sizes((tuple(shape), str(dtype)) for shape, dtype in signature)
    if any(sizes in ops.get(name, ()) for name in work):
        return True
    # A library call run eagerly under a transformation (jax.jvp's primal and tangent in one program)
    # takes the operands of several operations the trace shows: shown if those operations, each on
    # operands all among the call's, cover them, any other operand being a size the trace holds (a
    # tangent passed through). One example's share of the work is no traced operation's operands.
    own = set(sizes)
    cover = set().union(*(set(shown) for name in work for shown in ops.get(name, ()) if shown and set(shown) <= own))
    return bool(cover) and own - cover <= {size for shown in ops.values() for held in shown for size in held}
