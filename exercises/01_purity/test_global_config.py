"""Checks for purity-1 (global_config)."""

import jax.numpy as jnp
import numpy as np

from grader import checks

LOGITS = np.array([2.0, -1.0, 0.5], dtype=np.float32)


def test_follows_temperature_changes(exercise):
    logits = jnp.asarray(LOGITS)
    checks.assert_sees_global_change(
        call=lambda: exercise.scaled_logits(logits),
        set_global=exercise.set_temperature,
        values=[1.0, 2.0, 0.5, 4.0],
        expected=lambda t: LOGITS / t,
        what="scaled_logits(logits)")


def test_compiles_once_for_many_temperatures(exercise):
    logits = jnp.asarray(LOGITS)
    # Traced at a temperature of its own, on logits of its own: the program must divide by it.
    exercise.set_temperature(2.5)
    traced = jnp.asarray(np.random.default_rng(5).normal(size=7).astype(np.float32))
    checks.assert_jitted(exercise.scaled_logits, traced, what="scaled_logits", entirely=True,
                         expected=np.asarray(traced) / 2.5)
    # A host callback that fetches the global while the program runs also follows it, but the
    # function still reads state outside its arguments: the lesson is to pass the value in.
    program = checks.program_of(exercise.scaled_logits, traced, what="scaled_logits")
    checks.assert_not_uses(
        program, checks.CALLBACKS,
        what="scaled_logits", code="host-transfer",
        why="A host callback fetches the temperature from Python while the compiled program runs: "
            "the function still depends on a global that is not one of its inputs, so jit cannot see "
            "it, and vmap or other devices would all read the one host value. A value that changes "
            "between calls must reach the jitted code as an argument.")
    exercise.set_temperature(1.0)
    with checks.count_compiles() as first:
        exercise.scaled_logits(logits)  # the one compile
    with checks.count_compiles() as log:
        for t in [2.0, 3.0, 0.25, 8.0, 1.5]:
            exercise.set_temperature(t)
            out = exercise.scaled_logits(logits)
            checks.assert_close(out, LOGITS / t, what=f"scaled_logits(logits) at temperature {t}")
    checks.assert_compiles(
        log, what="scaled_logits()", calls="5 calls with new temperatures and the same shapes",
        expected=0, warm_up=first,
        why="the temperature is reaching the program as a compile-time constant (a static "
            "argument, or caches being cleared): pass it as an ordinary traced argument so a "
            "new value is new data, not a new program")
