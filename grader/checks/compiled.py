"""The compiled, partitioned program: where the work ran, what each device receives through
collectives."""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import jax
import jax.extend

from grader.checks.core import KataFailure, fail, sentence
from grader.checks.jitted import assert_called_as_traced
from grader.checks.nudges import combining_copies, unmoved_by_inputs
from grader.checks.programs import (COLLECTIVES, SHARD_MAP_DOCS, Program, all_eqns, assert_no_callbacks, program_of,
                                    traced_jaxpr)


HLO_COLLECTIVES = ("all-reduce", "all-gather", "collective-permute", "all-to-all", "reduce-scatter")


# --- where the work ran ---------------------------------------------------------------------------


def assert_runs_on_devices(fn: Callable, *args: Any, what: str, n_devices: int | None = None,
                           work: tuple[str, ...] = (), split: tuple[tuple[int, ...], ...] = (),
                           collectives: tuple[str, ...] = (), no_collectives: tuple[str, ...] | bool = (),
                           no_gather: tuple[tuple[int, ...], ...] | None = None, hint: str = "",
                           **kwargs: Any) -> Program:
    """The work of fn(*args) runs per device, inside a shard_map (or pmap), not before or after it.

    Placement of a result proves nothing about where it was computed: a result
    computed on one device and moved with `device_put` lands in the same place.
    This reads the program. A host callback anywhere in it fails: that work ran
    on no device.

    Args:
      n_devices: how many devices the mapped part must span (default: all).
      work: primitives that must run inside the per-device part and nowhere
        else, e.g. ("conv_general_dilated",).
      split: global shapes of arrays each device must see only its share of
        (a device given the whole batch is not data parallel).
      collectives: collectives that must appear in the per-device part (any one of them), with
        the outputs depending on one (a collective whose result is thrown away does not count).
      no_collectives: collectives that must not appear (True: none at all).
      no_gather: global shapes of split inputs that no device may collect back whole inside the
        per-device program (a device that gathers the whole batch computes on all of it): an
        all_gather of the input's block, or any collective whose result is as large as the whole
        input (a psum of one-hot-placed blocks). Default: the `split` shapes; pass () to allow it
        (e.g. weights gathered on purpose). Sizes decide: pick shapes whose split inputs hold more
        values than any result the devices may rightly gather (n gradients, say).
    Returns:
      The program, for further questions.
    """
    __tracebackhide__ = True
    n = n_devices or jax.device_count()
    program = program_of(fn, *args, what=what, **kwargs)
    assert_no_callbacks(program, what=what)  # work done on the host ran on no device
    calls = program.mapped_calls()
    if not calls:
        top = getattr(program.jaxpr, "jaxpr", program.jaxpr)
        results = {id(v) for v in top.outvars}
        moved_after = any(eqn.primitive.name == "device_put" and any(id(v) in results for v in eqn.outvars)
                          for eqn in top.eqns)
        if not moved_after and program.has("device_put", "sharding_constraint", "reshard"):
            # The data was given a sharding and jit's compiler split the work: on the devices, but
            # with no per-device program written.
            fail(sentence(f"{what} has no pmap or shard_map: the data was given a sharding and jit left "
                          f"it to the compiler to split the work. The task asks for the per-device "
                          f"program itself.", hint, f"See {SHARD_MAP_DOCS}"), "wrong-tool")
        moved = " The result was moved into place afterwards by device_put." if moved_after else ""
        fail(sentence(f"{what} ran on one device: its program has no pmap or shard_map, so one device "
                      f"computed everything.{moved} Put the work, not just the result, on the devices.",
                      hint, f"See {SHARD_MAP_DOCS}"), "not-distributed")
    wide = [c for c in calls if c.n_devices == n]
    if not wide:
        sizes = sorted({c.n_devices for c in calls})
        fail(sentence(f"{what} maps its work over {sizes} device(s); expected all {n}. The number of "
                      f"devices comes from jax.device_count() (or the mesh you are given), never a "
                      f"fixed number.", hint), "device-count")
    outside = set(program.outside_mapped())
    inside = {p for c in wide for p in c.primitives()}
    for name in work:
        if name not in inside:
            fail(sentence(f"{what}: the {name} work does not run inside the per-device program; "
                          f"each device should do its own share of it.", hint,
                          f"See {SHARD_MAP_DOCS}"), "not-distributed")
        if name in outside:
            fail(sentence(f"{what}: {name} also runs outside the per-device program, on the global "
                          f"array: how that part of the work is split (if at all) is left to the compiler "
                          f"or the default device, not written per device.", hint),
                 "not-distributed")
        if not program.live(name):  # a per-device program beside the work, its result thrown away or zeroed
            fail(sentence(f"{what}: the per-device program computes {name}, but what it returns does not "
                          f"follow it: the result is thrown away or folded in where it can never change "
                          f"the values, and the values come from work done another way outside it.", hint,
                          f"See {SHARD_MAP_DOCS}"), "not-distributed")
    for shape in split:
        entering = [(g, d) for c in wide for g, d in c.inputs if g == tuple(shape)]
        whole = [d for g, d in entering if math.prod(d) * n != math.prod(g)]
        if not entering or whole:
            per = whole[0] if whole else None
            fail(sentence(f"{what}: the shape-{tuple(shape)} input "
                          + (f"reaches every device whole (each device sees shape {per})"
                             if per is not None else "does not enter the per-device program split")
                          + f"; expected each of the {n} devices to get its own 1/{n} of it, so each "
                            f"computes on its shard only.", hint, f"See {SHARD_MAP_DOCS}"), "not-distributed")
    for shape in (split if no_gather is None else no_gather):
        whole = math.prod(shape)
        big = sorted({e.primitive.name for c in wide for e in all_eqns(c.body) if e.primitive.name in COLLECTIVES
                      and any(math.prod(getattr(v.aval, "shape", ())) >= whole for v in e.outvars)})
        gathered = any(tuple(shape) in c.gathered_inputs() for c in wide)
        if gathered or big:
            how = ("all-gathers the shape-{} input back whole".format(tuple(shape)) if gathered else
                   f"collects as much data as the whole shape-{tuple(shape)} input (its {big[0]} returns "
                   f"that many values)")
            fail(sentence(f"{what}: the per-device program {how}, so every device computes on all of "
                          f"it: the work is repeated on each of "
                          f"the {n} devices instead of split between them. Each device should compute on "
                          f"its own block and combine only results.", hint, f"See {SHARD_MAP_DOCS}"),
                 "not-distributed")
    used = {p for p in inside if p in COLLECTIVES}
    if collectives and not used & set(collectives):
        fail(sentence(f"{what}: the per-device program uses {sorted(used) or 'no collective'}; expected "
                      f"{' or '.join(collectives)} to combine the devices' results.", hint,
                      f"See {SHARD_MAP_DOCS}"), "wrong-collective")
    combining = program.live(*collectives) if collectives else []
    if collectives and not combining:
        fail(sentence(f"{what}: the per-device program calls {' or '.join(sorted(used & set(collectives)))}, "
                      f"but what it returns does not follow that call: its result is thrown away, or "
                      f"folded in where it can never change the values, and the values come from other work. The devices' results should be combined by the "
                      f"collective.", hint, f"See {SHARD_MAP_DOCS}"), "wrong-collective")
    # A collective of values no input moves (a psum of zeros) combines nothing the devices computed.
    if combining and not any(isinstance(leaf, jax.ShapeDtypeStruct) for leaf in program.inputs) and \
            len(unmoved_by_inputs(program.jaxpr, program.inputs, combining, mapped=True)) == len(combining):
        fail(sentence(f"{what}: the per-device program's {' and '.join(sorted({e.primitive.name for e in combining}))} "
                      f"combines values that stay the same whatever the input holds (zeros, a constant): "
                      f"it carries none of the devices' results, which reach the output another way (a "
                      f"reshard or gather the compiler does). The devices' results should be combined by the "
                      f"collective.", hint, f"See {SHARD_MAP_DOCS}"), "wrong-collective")
    # A collective of copies (each device hands it the same values) combines nothing the devices computed.
    if combining and not any(isinstance(leaf, jax.ShapeDtypeStruct) for leaf in program.inputs) and \
            len(combining_copies(program.jaxpr, program.inputs, combining)) == len(combining):
        fail(sentence(f"{what}: every device hands the per-device program's "
                      f"{' and '.join(sorted({e.primitive.name for e in combining}))} the same values: it combines "
                      f"copies of a result made outside the per-device program (by the compiler, on the global "
                      f"array), not the devices' own results. The devices' results should be combined by the "
                      f"collective.", hint, f"See {SHARD_MAP_DOCS}"), "wrong-collective")
    banned = used if no_collectives is True else used & set(no_collectives or ())
    if banned:
        fail(sentence(f"{what}: the per-device program uses {', '.join(sorted(banned))}, which this "
                      f"task avoids.", hint, f"See {SHARD_MAP_DOCS}"), "wrong-collective")
    # All of the above read the trace: the call on arrays must run it.
    assert_called_as_traced(fn, *args, what=what, program=program, **kwargs)
    return program


@dataclass
class CompiledProgram:
    """The optimised, partitioned HLO of a jitted call: what each device actually runs."""

    text: str
    executable: Any = None  # the jax Compiled object: call it, or read its memory_analysis()

    def memory(self) -> Any:
        """XLA's memory analysis of the compiled program (bytes): .temp_size_in_bytes (intermediates
        live during the run), .argument_size_in_bytes, .output_size_in_bytes, .alias_size_in_bytes."""
        return self.executable.memory_analysis()

    def collectives(self) -> Counter:
        """HLO collective ops (all-reduce, all-gather, collective-permute, ...) and how many of each."""
        found = Counter()
        for line in self.text.splitlines():
            # The op name follows the result type, which may be a tuple with spaces inside
            # ("(f32[2,1], f32[2,1]) all-to-all(...)"): match the op by what surrounds it.
            match = re.search(r"=.*?[\s)}](" + "|".join(HLO_COLLECTIVES) + r")(-start)?\(", line)
            if match:
                found[match.group(1)] += 1
        return found

    def collective_shapes(self) -> list[tuple[str, tuple[int, ...]]]:
        """(op, per-device result shape) of each HLO collective, e.g. ("all-gather", (8, 16)): what
        was gathered or reduced, so a check can tell an operand gathered whole from a small result."""
        found = []
        for line in self.text.splitlines():
            match = re.search(r"=\s*\w+\[([0-9,]*)\][^\s]*\s+(" + "|".join(HLO_COLLECTIVES) + r")(-start)?\(", line)
            if match:
                found.append((match.group(2), tuple(int(d) for d in match.group(1).split(",") if d)))
        return found

    def received(self) -> list[tuple[str, tuple[int, ...], float]]:
        """What each device receives through collectives while the program runs, as (op, per-device
        result shape, bytes received), loop bodies counted once per trip (a loop whose trip count XLA
        does not know counts 1000 trips): the measure of how much data the devices exchange,
        whatever collectives, reshards or hand-made rings moved it."""
        computations, entry = _hlo_computations(self.text)
        default_group = int(m.group(1)) if (m := re.search(r"num_partitions=(\d+)", self.text)) else 1
        memo: dict[str, list[tuple[str, tuple[int, ...], float]]] = {}

        def of(name: str, depth: int = 0) -> list[tuple[str, tuple[int, ...], float]]:
            if name in memo or depth > 50:
                return memo.get(name, [])
            found: list[tuple[str, tuple[int, ...], float]] = []
            for line in computations.get(name, []):
                op = re.search(r"=\s*(\(.*?\)|\w+\[[0-9,]*\]\S*)\s+(" + "|".join(HLO_COLLECTIVES)
                               + r")(-start)?\(", line)
                if op:
                    shapes = re.findall(r"(\w+)\[([0-9,]*)\]", op.group(1))
                    dtype, dims = shapes[-1]
                    shape = tuple(int(d) for d in dims.split(",") if d)
                    size = math.prod(shape) * _HLO_BYTES.get(dtype, 4)
                    group = _group_size(line) or default_group
                    share = {"collective-permute": 1.0, "reduce-scatter": group - 1.0}.get(op.group(2),
                                                                                          (group - 1) / group)
                    found.append((op.group(2), shape, size * share))
                trips = 1
                if " while(" in line:
                    count = re.search(r'"known_trip_count":\{"n":"(\d+)"\}', line)
                    trips = int(count.group(1)) if count else 1000
                branches = re.search(r"branch_computations=\{([^}]*)\}", line)
                if branches:
                    options = [of(b.strip().lstrip("%"), depth + 1) for b in branches.group(1).split(",")]
                    found += max(options, key=lambda got: sum(b for _, _, b in got), default=[])
                for callee in re.findall(r"(?:calls|to_apply|body)=%([\w.\-]+)", line):
                    found += [(o, s, b * trips) for o, s, b in of(callee, depth + 1)]
            memo[name] = found
            return found

        return of(entry) if entry else []

    def parameter_shapes(self) -> list[tuple[int, ...]]:
        """Per-device shapes of the entry computation's parameters."""
        entry = self.text[self.text.find("ENTRY"):]
        shapes = []
        for match in re.finditer(r"=\s*\w+\[([0-9,]*)\][^\n]*?parameter\((\d+)\)", entry.split("\n}\n")[0]):
            shapes.append((int(match.group(2)), tuple(int(d) for d in match.group(1).split(",") if d)))
        return [shape for _, shape in sorted(shapes)]


_HLO_BYTES = {"pred": 1, "s8": 1, "u8": 1, "s16": 2, "u16": 2, "f16": 2, "bf16": 2, "s32": 4, "u32": 4, "f32": 4,
              "s64": 8, "u64": 8, "f64": 8, "c64": 8, "c128": 16}


def _hlo_computations(text: str) -> tuple[dict[str, list[str]], str | None]:
    """The HLO module's computations by name (their instruction lines), and the entry's name."""
    computations: dict[str, list[str]] = {}
    entry, current = None, None
    for line in text.splitlines():
        head = re.match(r"^(ENTRY )?%([\w.\-]+) \(.*\{\s*$", line)
        if head:
            current = head.group(2)
            computations[current] = []
            entry = current if head.group(1) else entry
        elif line.startswith("}"):
            current = None
        elif current is not None:
            computations[current].append(line)
    return computations, entry


def _group_size(line: str) -> int | None:
    """How many devices one group of this collective spans, from its replica_groups."""
    listed = re.search(r"replica_groups=\{\{([0-9,]*)\}", line)
    if listed:
        return len(listed.group(1).split(","))
    iota = re.search(r"replica_groups=\[([0-9,]+)\]<=", line)
    if iota:
        return int(iota.group(1).split(",")[-1])
    mesh = re.search(r"replica_groups=mesh\[([^\]]*)\]\s*\{([^}]*)\}", line)
    if mesh:
        sizes = dict(re.findall(r"'(\w+)'=(\d+)", mesh.group(1)))
        return math.prod(int(sizes.get(axis.strip().strip("'"), 1)) for axis in mesh.group(2).split(","))
    return None


def assert_receives_at_most(fn: Callable, *args: Any, limit: float, what: str, allowed: str,
                            hint: str = "", **kwargs: Any) -> CompiledProgram:
    """Each device receives at most `limit` bytes through collectives while fn(*args) runs.

    A spelling-based check ("no all_gather") misses a gather built another way:
    n-1 ppermutes, a psum of one-hot-placed blocks, a reshard to replicated
    beside a decoy collective, a gather under a transposed shape. The bytes each
    device receives count them all: read from the compiled, partitioned program.

    Args:
      limit: bytes per device, e.g. one block of the input.
      allowed: what the task lets a device receive, for the message, e.g. "one block (24 bytes)".
    """
    __tracebackhide__ = True
    program = compiled_program(fn, *args, what=what, **kwargs)
    received = program.received()
    total = sum(b for _, _, b in received)
    if total > limit:
        biggest = sorted(received, key=lambda r: -r[2])[:3]
        listed = ", ".join(f"{op} of {list(shape)} ({b:.0f} bytes)" for op, shape, b in biggest)
        fail(sentence(f"{what}: each device receives about {total:.0f} bytes from the others while it "
                      f"runs ({listed}); the task needs at most {allowed}. The whole array (or most of "
                      f"it) is being collected on every device, whatever the collective that does it.",
                      hint, f"See {SHARD_MAP_DOCS}"), "wrong-collective")
    return program


def compiled_program(fn: Callable, *args: Any, what: str, **kwargs: Any) -> CompiledProgram:
    """Lower and compile fn(*args) with the arguments' shardings; the per-device HLO."""
    __tracebackhide__ = True
    try:
        compiled = jax.jit(lambda *a: fn(*a, **kwargs)).lower(*args).compile()
    except KataFailure:
        raise
    except (jax.errors.ConcretizationTypeError, jax.errors.TracerBoolConversionError,
            jax.errors.TracerIntegerConversionError, jax.errors.TracerArrayConversionError):
        traced_jaxpr(fn, *args, what=what, **kwargs)  # fails with the lesson for the error
        raise
    return CompiledProgram(compiled.as_text(), compiled)


def compiled_jit(fn: Callable, *args: Any, what: str, hint: str = "") -> Any:
    """The compiled program of `fn(*args)`, which must be one `jax.jit` call, compiled here.

    `fn.lower(...).compile()` is answered where `fn` lives: under the grader, in
    the submission's process, where any object with a `lower` method can report
    any layouts. This reads the program `fn` traces to instead: one jit call on
    its inputs that returns its outputs (work around it, such as a `device_put`
    after the jitted call, is outside its compiled program and fails), then
    compiles that call here with the layouts, donations and options its jit was
    given. Its `input_shardings` and `output_shardings` are the jit's own, one per
    input and output leaf (`output_shardings` is a tuple even for one output).
    """
    __tracebackhide__ = True
    from jax._src import core

    top = traced_jaxpr(fn, *args, what=what).jaxpr
    call = top.eqns[0] if len(top.eqns) == 1 else None
    if (call is None or call.primitive.name not in ("jit", "pjit") or list(call.invars) != list(top.invars)
            or list(call.outvars) != list(top.outvars)):
        found = ", ".join(e.primitive.name for e in top.eqns) or "no operation at all"
        fail(sentence(f"{what} is not one jax.jit call: its program is {found}. Layouts, donation and "
                      f"options belong to the compiled program only when jax.jit is given them; work "
                      f"done around the jitted call (a device_put of its result) happens outside it.",
                      hint), "wrong-tool")
    params = call.params
    body = core.jaxpr_as_fun(params["jaxpr"])

    def chosen(shardings: tuple) -> tuple:  # a layout jit was not told is the compiler's to choose
        return tuple(None if type(s).__name__ == "UnspecifiedValue" else s for s in shardings)

    donated = tuple(i for i, d in enumerate(params["donated_invars"]) if d)
    program = jax.jit(lambda *a: tuple(body(*a)), in_shardings=chosen(params["in_shardings"]),
                      out_shardings=chosen(params["out_shardings"]), donate_argnums=donated,
                      keep_unused=params["keep_unused"])
    return program.lower(*jax.tree.leaves(args)).compile()


def per_device_shape(shape: tuple[int, ...], spec: Any, mesh: Any) -> tuple[int, ...]:
    """The shard shape of a global `shape` laid out as `spec` over `mesh` (for messages and checks)."""
    from jax.sharding import NamedSharding

    return tuple(NamedSharding(mesh, spec).shard_shape(tuple(shape)))


def exported_text(exported: Any) -> str:
    """An exported artefact's StableHLO without its module's name and source locations: two exports of
    one function, for the same inputs and platforms, read the same; an artefact of another function
    (or lowered for other platforms and relabelled) does not."""
    lines = [re.sub(r" loc\([^()]*\)", "", line) for line in exported.mlir_module().splitlines()[1:]
             if not line.startswith("#loc")]
    return "\n".join(lines)
