"""Checks for perf-2 (host_round_trips)."""

import jax
import jax.numpy as jnp
import numpy as np

from grader import checks

N_STEPS = 5
LEARNING_RATE = 0.1


def _data():
    rng = np.random.default_rng(1)
    xs = rng.normal(size=(N_STEPS, 16, 3)).astype(np.float32)
    ys = (xs @ np.array([1.5, -2.0, 0.5]) + 0.1 * rng.normal(size=(N_STEPS, 16))).astype(np.float32)
    return xs, ys


def _expected():
    """Plain NumPy SGD on the same batches: (final weights, per-step losses)."""
    xs, ys = _data()
    w, losses = np.zeros(3), []
    for x, y in zip(xs, ys):
        residual = x @ w - y
        losses.append(np.mean(residual ** 2))
        w = w - LEARNING_RATE * 2.0 / len(y) * x.T @ residual
    return w, np.array(losses)


def _device_inputs():
    """Everything already on the device, so any transfer inside train is train's own doing."""
    xs, ys = _data()
    w = jnp.zeros(3, dtype=jnp.float32)
    batches = [(jnp.asarray(x), jnp.asarray(y)) for x, y in zip(xs, ys)]
    return w, batches


def _check_result(out, what):
    if not (isinstance(out, tuple) and len(out) == 2):
        checks.fail(f"{what} returned {type(out).__name__}; expected a pair (w, losses).", "wrong-shape")
    checks.assert_close(out, _expected(), what=what, rtol=1e-4, atol=1e-5,
                        hint=f"Return the final weights and the {N_STEPS} losses stacked into one "
                             f"array of shape ({N_STEPS},), one loss per step, before its update.")


def test_weights_and_losses_match_with_transfers_disallowed(exercise):
    # The round trip first (the bug), then the results.
    w, batches = _device_inputs()
    try:
        with jax.transfer_guard("disallow"), checks.host_reads() as reads:
            out = exercise.train(w, batches)
    except Exception as error:  # JAX reports a blocked transfer as a runtime error
        if "Disallowed" not in str(error):
            raise
        blocked = str(error).split(", dst_sharding")[0].replace("INVALID_ARGUMENT: ", "")
        if reads or f"[{N_STEPS}]" in blocked:  # the losses themselves went out and came back in
            why = ("A loss pulled to the host each step (float(loss), loss.item(), np.asarray(loss)) stalls "
                   "the loop until the step finishes, and turning those numbers back into an array copies "
                   "them to the device again. Keep the losses as jax.Arrays and put them together on the "
                   "device.")
        else:
            why = ("Either a loss pulled out as a number (loss.item(), np.asarray(loss)) went back in, or a "
                   "Python number used by an operation train runs eagerly, outside the jitted step (an "
                   "index, a constant, the fill of jnp.zeros), is copied to the device on every call. "
                   "Keep the losses as jax.Arrays, and stack them once at the end.")
        checks.fail(f"train(w, batches) copied data from the host to the device with transfers disallowed "
                    f"({blocked}). {why} See {checks.DOCS}/transfer_guard.html", "host-transfer")
    # The guard sees host-to-device copies only on a CPU; a value read back (printed, formatted,
    # float(), .item(), np.asarray) is the other half of the round trip, and it stalls the loop just the same.
    if reads:
        checks.fail(f"train(w, batches) read {len(reads)} array(s) back to the host while it ran "
                    f"({', '.join(reads[:3])}{', ...' if len(reads) > 3 else ''}): printing a loss, "
                    f"formatting it, float(loss), loss.item() or np.asarray(loss) copies it from the device and waits for the step to "
                    f"finish, so the next step cannot be queued ahead (loss.copy_to_host_async() starts the "
                    f"same copy, every step, for a value no one needs yet). Keep the losses on the device and "
                    f"let the caller read them once, at the end. See {checks.DOCS}/async_dispatch.html",
                    "host-transfer")
    _check_result(out, "train(w, batches) with transfers disallowed")


def test_runs_under_jit(exercise):
    w, batches = _device_inputs()
    try:
        out = jax.jit(exercise.train)(w, batches)
    except (jax.errors.ConcretizationTypeError, jax.errors.TracerArrayConversionError,
            jax.errors.TracerIntegerConversionError) as error:
        checks.fail(
            f"jax.jit(train) fails: {type(error).__name__}. Under jit a loss is a tracer with no "
            "value yet, so float(loss), loss.item() or np.asarray(...) cannot run: each is a copy to "
            "the host. (On a CPU the transfer guard cannot see device-to-host copies, so this check "
            "does.) Keep every value a jax.Array, including the losses you return. "
            f"See {checks.DOCS}/async_dispatch.html", "host-transfer")
    _check_result(out, "jax.jit(train)(w, batches)")
    # A host callback survives jit and the transfer guard, yet it is the same round trip in disguise.
    # So does jax.debug.print: a callback that copies the loss to the host on every step.
    program = checks.program_of(exercise.train, w, batches, what="train(w, batches)")
    checks.assert_not_uses(
        program, checks.CALLBACKS | {"debug_callback"}, what="train(w, batches)", code="host-transfer",
        why="A host callback (jax.debug.print is one) copies each loss to the host in the middle of the "
            "program and waits for it: the same transfer as float(loss) or print(loss), only hidden from "
            "jit and the transfer guard. Keep the losses as jax.Arrays.")
    checks.assert_computes(program, _expected(), what="train(w, batches)", rtol=1e-4, atol=1e-5)
