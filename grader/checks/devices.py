"""Where arrays live, how they are sharded, whether buffers were donated, and other device counts."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import jax
import numpy as np

from grader.checks import site
from grader.checks.core import DOCS, fail, sentence
from grader.checks.hostreads import host_reads, start_host_reads, stop_host_reads  # noqa: F401 - their home before
from grader.checks.layout import picture
from grader.checks.values import refuse_unreadable
from grader.runtime.worker import ask_worker

SHARDING_DOCS = f"{DOCS}/notebooks/Distributed_arrays_and_automatic_parallelization.html"
DONATION_DOCS = f"{DOCS}/faq.html#buffer-donation"


def _devices(devices: set[Any]) -> str:
    ids = sorted(d.id for d in devices)
    return f"device {ids[0]}" if len(ids) == 1 else f"devices {ids}"


def assert_on_devices(x: Any, devices: set[Any] | list[Any], *, what: str, hint: str = "") -> None:
    """Every array leaf of `x` lives on exactly these devices."""
    __tracebackhide__ = True
    refuse_unreadable(x, what=what)
    want = set(devices)
    for leaf in jax.tree.leaves(x):
        if not isinstance(leaf, jax.Array):
            fail(sentence(f"{what} returned a {type(leaf).__name__}, not a jax.Array: it lives on the host.",
                          hint), "host-transfer")
        got = set(leaf.devices())
        if got != want:
            # Only one device makes one expected layout; several could hold the array in many ways.
            expected = jax.sharding.SingleDeviceSharding(next(iter(want))) if len(want) == 1 else None
            fail(sentence(f"{what} is on {_devices(got)}; expected {_devices(want)}.", hint,
                          f"See {DOCS}/sharded-computation.html"), "wrong-sharding", picture(expected, leaf))


def handed_mesh(shape: tuple[int, ...], names: tuple[str, ...], **kwargs: Any) -> jax.sharding.Mesh:
    """A mesh for a check to hand the learner's function: `jax.make_mesh`'s axes and axis types, its
    devices in a shuffled order (with more than two devices, never JAX's own nor its reverse), the
    same in every run and mode, so that a learner's own run and the grader's judge alike. The order
    is kept as drawn on every platform (`make_mesh` would sort GPU and TPU devices back). A function
    that builds a mesh of its own instead of using the one it is handed then lays its blocks out on
    other devices, which `assert_sharding(mesh=)` sees; one that copies this recipe from the grader's
    source is not seen."""
    import random

    devices = jax.devices()
    order = list(range(len(devices)))[::-1]
    fixed = (sorted(order), sorted(order, reverse=True))
    shuffle = random.Random(len(devices)).shuffle
    while len(order) > 2 and order in fixed:
        shuffle(order)
    axis_types = jax.make_mesh(shape, names, **kwargs).axis_types
    return jax.sharding.Mesh(np.array([devices[i] for i in order]).reshape(shape), names, axis_types=axis_types)


def assert_sharding(x: jax.Array, *, what: str, spec: Any = None, shard_shape: tuple[int, ...] | None = None,
                    n_devices: int | None = None, mesh: Any = None, hint: str = "") -> None:
    """`x` is sharded as asked: partition spec, per-shard shape and how many devices hold it.

    `mesh`: the mesh the function was handed (see `handed_mesh`). With `spec`, each block must then
    sit where that mesh puts it, not on a mesh of the function's own with the same axes. Without a
    mesh, the picture a failure shows uses x's own.
    """
    __tracebackhide__ = True
    refuse_unreadable(x, what=what)
    if not isinstance(x, jax.Array):
        fail(sentence(f"{what} is a {type(x).__name__}, not a jax.Array.", hint), "host-transfer")
    sharding = x.sharding
    mesh = mesh if mesh is not None else getattr(sharding, "mesh", None)
    expected = None
    if spec is not None and isinstance(mesh, jax.sharding.Mesh):
        expected = jax.sharding.NamedSharding(mesh, jax.sharding.PartitionSpec(*spec))
    if spec is not None:
        got = getattr(sharding, "spec", None)
        if got is None or tuple(got) + (None,) * (x.ndim - len(got)) != tuple(spec) + (None,) * (x.ndim - len(spec)):
            fail(sentence(f"{what} has sharding {sharding}; expected PartitionSpec{tuple(spec)}.", hint,
                          f"See {SHARDING_DOCS}"), "wrong-sharding", picture(expected, x))
    if shard_shape is not None:
        got_shape = sharding.shard_shape(x.shape)
        if tuple(got_shape) != tuple(shard_shape):
            fail(sentence(f"{what}: each shard has shape {tuple(got_shape)}; expected {tuple(shard_shape)}.",
                          hint), "wrong-sharding", picture(expected, x))
    if n_devices is not None:
        held = {shard.device for shard in x.addressable_shards}
        if len(held) != n_devices:
            fail(sentence(f"{what} is spread over {len(held)} device(s); expected {n_devices}.", hint),
                 "wrong-sharding", picture(expected, x))
    if expected is not None and not sharding.is_equivalent_to(expected, x.ndim):
        theirs = getattr(getattr(sharding, "mesh", None), "devices", None)
        fail(sentence(f"{what} is split as asked, but over {'a mesh of its own' if theirs is not None else sharding}"
                      f"{f' (devices {[d.id for d in theirs.flat]})' if theirs is not None else ''}, not the mesh "
                      f"it was handed (devices {[d.id for d in mesh.devices.flat]}): its blocks sit on other "
                      f"devices than the caller's mesh puts them on. Code handed a mesh places its arrays on "
                      f"that mesh; one it builds itself only agrees with the caller's by chance.", hint,
                      f"See {SHARDING_DOCS}"), "wrong-sharding", picture(expected, x))


def assert_replicated(x: jax.Array, *, what: str, hint: str = "") -> None:
    """Every device holds the whole of `x`, and all copies agree."""
    __tracebackhide__ = True
    refuse_unreadable(x, what=what)
    if not x.sharding.is_fully_replicated:
        everywhere = jax.sharding.NamedSharding(jax.sharding.Mesh(sorted(x.devices(), key=lambda d: d.id),
                                                                  ("devices",)), jax.sharding.PartitionSpec())
        fail(sentence(f"{what} is not replicated (sharding {x.sharding}): each device holds only part of it. "
                      f"A collective such as lax.psum/all_gather makes every device hold the whole.", hint),
             "wrong-sharding", picture(everywhere, x))
    first = np.asarray(x.addressable_shards[0].data)
    for shard in x.addressable_shards[1:]:
        if not np.array_equal(np.asarray(shard.data), first):
            fail(sentence(f"{what} differs between devices {x.addressable_shards[0].device.id} and "
                          f"{shard.device.id}.", hint), "wrong-collective")


def assert_split_over_devices(x: Any, *, what: str, hint: str = "") -> None:
    """Each of `jax.devices()` holds its own, equal slice of `x`'s leading axis.

    That is how `pmap` (or a jit whose leading axis is sharded) returns results:
    device i keeps the rows it computed. A result on one device, or a whole copy
    on every device, fails. (Placement only: `assert_runs_on_devices` proves
    the work itself ran per device.)
    """
    __tracebackhide__ = True
    refuse_unreadable(x, what=what)
    if not isinstance(x, jax.Array):
        fail(sentence(f"{what} returned a {type(x).__name__}, not a jax.Array.", hint), "host-transfer")
    devices = set(jax.devices())
    n, rows = len(devices), (x.shape[0] if x.ndim else 0)
    shards = x.addressable_shards
    held = {shard.device for shard in shards}

    def shown() -> Any:
        """Expected beside actual: one slice per device in device order (any order is right)."""
        sliced = jax.sharding.NamedSharding(jax.sharding.Mesh(jax.devices(), ("devices",)),
                                            jax.sharding.PartitionSpec("devices"))
        return picture(sliced if x.ndim and rows % n == 0 else None, x, expected_title="expected (any order)")

    if held != devices or len(shards) != n:
        fail(sentence(f"{what} is on {_devices(held)}; expected one slice of its leading axis on each of "
                      f"the {n} devices, left where each device computed it.", hint,
                      f"See {SHARDING_DOCS}"), "wrong-sharding", shown())
    starts = set()
    for shard in shards:
        index = shard.index[0] if shard.index else slice(None)
        start, stop, _ = index.indices(rows)
        if rows % n or stop - start != rows // n or tuple(shard.data.shape[1:]) != tuple(x.shape[1:]):
            fail(sentence(f"{what}: device {shard.device.id} holds a block of shape {tuple(shard.data.shape)} "
                          f"of the shape-{tuple(x.shape)} result; expected its own contiguous {rows // n} of "
                          f"the {rows} leading rows. The result was gathered or rearranged across devices "
                          f"after the per-device work.", hint), "wrong-sharding", shown())
        starts.add(start)
    if len(starts) != n:
        fail(sentence(f"{what}: several devices hold the same rows; expected each device to hold its own "
                      f"slice of the leading axis.", hint), "wrong-sharding", shown())


# --- donation -----------------------------------------------------------------------------------


def _pointers(leaf: Any) -> list[int]:
    where = site.current()
    if where is not None:  # the buffers live where the exercise ran
        return where.buffer_pointers(leaf)
    return [shard.data.unsafe_buffer_pointer() for shard in leaf.addressable_shards]


def assert_donated(call: Callable[[], Any], donated: Any, *, what: str, hint: str = "",
                   programs: int | None = None) -> Any:
    """Run `call()`; every array leaf of `donated` must have been donated to it.

    Donated means the call's compiled program took the buffer over: the input
    is deleted *and* an output lives in the same memory. A deleted input whose
    memory no output reuses was freed by hand (`x.delete()`) after a fresh
    buffer was allocated: the peak memory donation saves was paid anyway.

    `programs`: how many compiled programs the call may run (JAX's caches are
    emptied first, so each one it runs compiles), and no operation may run
    eagerly beside them. With one, the program that takes the donation is the
    one that computes the values: a second program, or op-by-op work, computing
    into fresh buffers before a program donated only to receive a copy passes
    the two checks above while old and new are held at once.
    Returns what `call()` returned.
    """
    __tracebackhide__ = True
    from grader.checks.compiles import clear_caches, count_compiles

    flat = jax.tree_util.tree_flatten_with_path(donated)[0]
    named = [(jax.tree_util.keystr(path) or "the argument", leaf) for path, leaf in flat
             if isinstance(leaf, jax.Array)]
    before = {name: _pointers(leaf) for name, leaf in named}
    if programs is not None:
        clear_caches()
    with count_compiles() as log:
        out = call()
        jax.block_until_ready(out)
    reused = {ptr for leaf in jax.tree.leaves(out) if isinstance(leaf, jax.Array) and not leaf.is_deleted()
              for ptr in _pointers(leaf)}
    alive = [name for name, leaf in named if not leaf.is_deleted()]
    if alive:
        fail(sentence(f"after {what} the donated input(s) {', '.join(alive)} are still alive (is_deleted() "
                      f"is False): their memory was not handed to the output, so old and new values were "
                      f"both held at once. Donation is asked for when the function is jitted, and only "
                      f"happens in a jitted call.", hint, f"See {DONATION_DOCS}"), "not-donated")
    elsewhere = [name for name, _ in named if not set(before[name]) & reused]
    if elsewhere:
        fail(sentence(f"after {what} the input(s) {', '.join(elsewhere)} are deleted, but no output uses "
                      f"their memory: the output was written to a new buffer and the input freed "
                      f"afterwards (by hand, with delete()?). That is not donation: with donation the "
                      f"compiled program writes its output into the donated buffer, so the memory is "
                      f"never needed twice.", hint, f"See {DONATION_DOCS}"), "not-donated")
    if programs is not None and log.eager:
        fail(sentence(f"{what} ran work op by op ({', '.join(sorted(set(log.eager)))}, each compiled for the "
                      f"call as an eager operation) beside the program that took the donation: the new values "
                      f"were computed into fresh buffers outside it before the donated input was handed over, "
                      f"so old and new were held at once, which donation is there to avoid. Donate the input "
                      f"to the jitted call that computes the new values, and compute them all there.",
                      hint, f"See {DONATION_DOCS}"), "not-donated")
    if programs is not None and log.count > programs:
        fail(sentence(f"{what} ran {log.count} compiled programs ({', '.join(log.names)}) where "
                      f"{programs} should do the work: the new values were computed into fresh buffers "
                      f"before the donated input was handed over, and only then handed to a program that "
                      f"took the donation, so old and new were held at once, which donation is there to "
                      f"avoid. Donate the input to the jitted call that computes the new values.",
                      hint, f"See {DONATION_DOCS}"), "not-donated")
    return out


def lowered_donations(fn: Callable, *args: Any, **kwargs: Any) -> list[int]:
    """Indices of the flat inputs the lowered program marks as donated (aliased to an output).

    `fn` must be a jitted function (it needs `.lower`); JAX writes donation into
    the lowered module as `tf.aliasing_output` / `jax.buffer_donor` attributes.
    """
    text = fn.lower(*args, **kwargs).as_text()
    main = next((line for line in text.splitlines() if "func.func public @main" in line), "")
    arguments = main.split("(", 1)[1].split(") ->", 1)[0] if "(" in main else ""
    parts = [part for part in arguments.split("%arg")[1:]]
    return [i for i, part in enumerate(parts) if "tf.aliasing_output" in part or "jax.buffer_donor" in part]


# --- the same check with another number of devices -----------------------------------------------


def within_seconds(seconds: float, check: Callable[[Any], None], exercise: Any, *, what: str,
                   why: str) -> None:
    """Run `check(exercise)` in a helper process and fail if it has not finished within `seconds`.

    For a check that never ends on a wrong answer (a while_loop with no step
    cap hangs inside XLA, where nothing interrupts it): the helper process is
    stopped instead of the check process hanging until its limit. It shares
    the process `on_devices(4, ...)` uses (the device count does not matter
    here), so a right answer costs no extra process. `check` must be a
    module-level function of the check file; its failure comes back as this
    check's failure.
    """
    __tracebackhide__ = True
    where = site.current()
    answer = where.within_seconds(seconds, check, exercise) if where is not None else \
        ask_worker(4, check, exercise, seconds)
    kind, message = answer["kind"], answer.get("message", "")
    if kind == "ok":
        return
    if kind == "todo":
        raise NotImplementedError(message)
    if kind == "late":
        fail(sentence(f"{what} did not finish within {seconds:g} s and was stopped.", why), "timeout")
    if kind == "crash":
        fail(f"{what} crashed the check process ({message}).", "crash")
    fail(message, answer.get("code", "wrong-values"))


def on_devices(n_devices: int, check: Callable[[Any], None], exercise: Any) -> None:
    """Run `check(exercise)` again in a helper process that has `n_devices` CPU devices.

    Every check runs with 8 devices, so an answer that hard-codes 8 (a mesh
    shape, ring pairs, a block count) cannot be told from one that reads
    `jax.device_count()`. This reruns a check function with another count.
    `check` must be a module-level function of the check file; it gets a fresh
    import of the exercise in the helper process, and its failure comes back
    as this check's failure (code "device-count"). When it fails there, it is
    also run here: if it fails with this process's devices too, that failure
    (and its code) is raised instead, since the device count is not the cause.
    """
    __tracebackhide__ = True
    where = site.current()
    answer = where.on_devices(n_devices, check, exercise) if where is not None else \
        ask_worker(n_devices, check, exercise)
    kind, message = answer["kind"], answer.get("message", "")
    where = f"with {n_devices} devices instead of {jax.device_count()}"
    if kind == "ok":
        return
    if kind == "todo":
        raise NotImplementedError(message)
    if kind == "crash":
        fail(f"{where}, the check process crashed ({message}).", "crash")
    if kind == "failure" and answer.get("code") in ("todo", "timeout", "missing", "syntax-error"):
        fail(message, answer["code"])
    # It failed with n devices: if it fails with this process's devices too, that failure is the
    # real lesson (the answer is wrong whatever the count), so it is raised here instead.
    check(exercise)
    lesson = ("The same check passes or fails on the device count alone: read the number of devices "
              "from jax.device_count() (or the mesh you are given) instead of writing 8.")
    fail(f"{where}: {message} {lesson}", "device-count")
