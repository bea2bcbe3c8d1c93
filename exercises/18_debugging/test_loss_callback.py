"""Checks for debug-3 (loss_callback)."""

import jax
import jax.numpy as jnp
import numpy as np

from grader import checks

DEBUGGING = f"{checks.DOCS}/debugging.html"
# Ways a callback can live inside the compiled program and run on every call.
CALLBACKS_IN_PROGRAM = ("debug_callback", "io_callback")
LR = 0.1


def _data(seed, batch=()):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(*batch, 5, 3)).astype(np.float32)
    y = rng.normal(size=(*batch, 5)).astype(np.float32)
    return x, y


W = np.array([0.5, -1.0, 2.0], np.float32)


def _expected(w, x, y):
    w, x, y = (np.asarray(a, np.float64) for a in (w, x, y))
    residual = x @ w - y
    return np.mean(residual ** 2), w - LR * 2.0 * x.T @ residual / len(y)


def _recorded(exercise, start, *, what):
    """The entries record_loss got since `start`, as floats; a tracer among them is the trace-time bug."""
    jax.effects_barrier()  # callbacks may run asynchronously: wait for them
    entries = list(exercise.LOSSES[start:])
    for entry in entries:
        if isinstance(entry, jax.core.Tracer):
            checks.fail(f"{what} recorded a tracer ({entry!r}), not a loss: the Python call inside the "
                        f"jitted step ran while jit traced it, when the loss was only an abstract value, "
                        f"and it will not run again on later calls. Hand the loss to record_loss from "
                        f"inside the compiled program, so it runs on every call with the value. "
                        f"See {DEBUGGING}", "trace-time-effect")
    return [float(np.asarray(entry)) for entry in entries]


def _program_has_callback(exercise):
    program = checks.program_of(exercise.sgd_step, jnp.asarray(W), *map(jnp.asarray, _data(9)),
                                what="sgd_step")
    return program.has(*CALLBACKS_IN_PROGRAM), program


def test_records_the_loss_on_every_call_compiled_once(exercise):
    calls = [_data(seed) for seed in (1, 2, 3)]
    w = jnp.asarray(W)
    args = [tuple(map(jnp.asarray, xy)) for xy in calls]
    start = len(exercise.LOSSES)
    logs = []
    for i, ((x, y), (xa, ya)) in enumerate(zip(calls, args)):
        with checks.count_compiles() as log:
            new_w = exercise.sgd_step(w, xa, ya)
        logs.append(log)
        want_loss, want_w = _expected(W, x, y)
        checks.assert_close(new_w, want_w, what=f"sgd_step(w, x, y) on data set {i + 1}")
        got = _recorded(exercise, start, what=f"sgd_step on call {i + 1}")
        if len(got) != i + 1:
            has, program = _program_has_callback(exercise)
            dropped = " Its program holds a pure_callback: a pure callback whose result nothing uses " \
                      "is removed from the compiled program." if program.has("pure_callback") else ""
            checks.fail(f"after {i + 1} call(s) of sgd_step, record_loss has {len(got)} entries; expected "
                        f"one per call. A Python call inside a jitted function runs only while it is "
                        f"traced; a callback that is part of the compiled program runs on every call."
                        f"{dropped} See {DEBUGGING}", "trace-time-effect")
        checks.assert_close(got[-1], want_loss, what=f"the loss recorded on call {i + 1}",
                            hint="Record the loss of the weights the step was given, before the update.")
    checks.assert_compiles(logs[0], what="sgd_step()", calls="its first call", at_most=1)
    later = checks.CompileLog(None, [name for log in logs[1:] for name in log.names])
    checks.assert_compiles(later, what="sgd_step()", calls="2 more calls with new data of the same shapes",
                           expected=0, warm_up=logs[0],
                           why="recording the loss must not retrace the step: the callback belongs "
                               "inside the one compiled program")


def test_callback_is_part_of_the_program(exercise):
    has, program = _program_has_callback(exercise)
    if program.has("pure_callback"):  # beside a callback for effects too: the task keeps them out
        which = "program holds a pure_callback beside its other callbacks" if has else \
            "only callback is a pure_callback"
        checks.fail(f"sgd_step's {which}: JAX treats a pure callback as a pure function of its inputs, "
                    f"so one whose result nothing uses is removed from the compiled program, and under "
                    f"transformations it may run more or fewer times. Recording a value is a side "
                    f"effect: record the loss through a callback meant for side effects, and keep pure "
                    f"callbacks out of the step. See {DEBUGGING}", "wrong-tool")
    if has:
        return
    checks.fail(f"sgd_step's traced program holds no callback "
                f"({', '.join(sorted(set(program.primitives())))}), so the loss is recorded, if at "
                f"all, by Python around or while tracing the program. Called from inside a bigger "
                f"jitted function (a training loop under jit, a scan over steps) such a record "
                f"runs once, with a tracer. Put a callback into the program. See {DEBUGGING}",
                "trace-time-effect")


def test_vmap_records_every_data_set(exercise):
    xs, ys = _data(4, batch=(4,))
    start = len(exercise.LOSSES)
    try:
        new_w = jax.vmap(exercise.sgd_step, in_axes=(None, 0, 0))(jnp.asarray(W), jnp.asarray(xs), jnp.asarray(ys))
    except Exception as error:  # noqa: BLE001 - explained below when the callback kind is the cause
        if not _program_has_callback(exercise)[1].has("pure_callback"):
            raise
        checks.fail(f"jax.vmap(sgd_step) raised {type(error).__name__} ({str(error).splitlines()[0][:90]}): "
                    f"sgd_step records the loss through a pure_callback, which vmap batches only when told "
                    f"how. The cause is the choice of callback, not a missing option: a pure callback stands "
                    f"for a pure function, which JAX may drop or repeat, while recording is a side effect. "
                    f"The debugging callback is kept for its effect, and under vmap runs once per example "
                    f"with nothing more said. See {DEBUGGING}", "wrong-tool")
    want = [_expected(W, x, y) for x, y in zip(xs, ys)]
    checks.assert_close(new_w, np.stack([w for _, w in want]), what="jax.vmap(sgd_step)(w, xs, ys)")
    got = _recorded(exercise, start, what="jax.vmap(sgd_step) over 4 data sets")
    if len(got) != 4:
        checks.fail(f"jax.vmap(sgd_step) over 4 data sets made record_loss record {len(got)} entries; "
                    f"expected 4, one loss per data set. Under vmap a callback in the program runs "
                    f"once per example, with that example's values. See {DEBUGGING}",
                    "trace-time-effect")
    checks.assert_close(np.sort(got), np.sort([loss for loss, _ in want]),
                        what="the losses recorded under vmap (in any order)")
