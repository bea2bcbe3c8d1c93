"""Checks for jit-9 (weak_types)."""

import jax.numpy as jnp
import numpy as np

from grader import checks

# A schedule's values, as Python and NumPy hand them out.
# 0.1 has no exact bfloat16 (or float16) value: a narrower dtype for lr shows in the update.
SCHEDULE = [1, 0.5, np.float32(0.25), 2, np.int32(1), 0.125, np.float64(0.75), 3, 0.1]


def _problem(seed, n):
    rng = np.random.default_rng(seed)
    return (jnp.asarray(rng.normal(size=n).astype(np.float32)),
            jnp.asarray(rng.normal(size=n).astype(np.float32)))


def test_mixed_scalar_stream_compiles_once_with_float32_updates(exercise):
    # Warm up on another shape first, so one-time eager conversions are not counted.
    warm_w, warm_grad = _problem(1, 3)
    for lr in SCHEDULE:
        exercise.apply_update(warm_w, warm_grad, lr)
    w, grad = _problem(2, 4)
    with checks.count_compiles() as log:
        outs = [exercise.apply_update(w, grad, lr) for lr in SCHEDULE]
    # The update itself must run in the program: not a jitted remnant with the rest done eagerly.
    checks.assert_jitted(exercise.apply_update, w, grad, what="apply_update", lr=0.5, entirely=True,
                         expected=np.asarray(w) - 0.5 * np.asarray(grad))
    if log.count > 1 and len(set(log.signatures)) == 1:
        why = ("every one of these programs takes the same inputs, so lr is not among them: it is baked "
               "into each program as a constant (a static argument, or a value captured by a new jit), "
               "and every new value compiles again. lr must reach the program as traced data")
    else:
        why = ("each kind of scalar is its own cache key: a Python int is traced as weak int32, a Python "
               "float as weak float32, a NumPy scalar as its own strong dtype. Give the jitted function "
               "lr as one and the same dtype every time, whatever the caller passes (a static lr would "
               "compile once per value instead)")
    checks.assert_compiles(
        log, what="apply_update()", calls=f"{len(SCHEDULE)} learning rates (Python int/float, NumPy "
                                          f"float32/int32/float64) at a shape not seen before, so one compile is due",
        expected=1, why=why)
    # One program is not enough: the one dtype must keep every update's value, in float32.
    for lr, out in zip(SCHEDULE, outs):
        checks.assert_shape_dtype(out, (4,), np.float32, what=f"apply_update(w, grad, {lr!r})")
        checks.assert_close(out, np.asarray(w) - float(lr) * np.asarray(grad), rtol=1e-5, atol=1e-6,
                            what=f"apply_update(w, grad, {lr!r})", hint=_what_lr_became(out, w, grad, lr))


def _what_lr_became(out, w, grad, lr):
    """Name the dtype that changed lr on its way in, if the update shows one."""
    def used(rate):
        return np.allclose(np.asarray(out), np.asarray(w) - rate * np.asarray(grad), rtol=1e-5, atol=1e-6)

    if used(int(lr)):
        return (f"The update used lr = {int(lr)}: an integer dtype truncates {lr!r}. The one dtype must be a "
                f"float (float32).")
    for narrow in (jnp.bfloat16, jnp.float16):
        rounded = float(np.asarray(float(lr), dtype=narrow))
        if rounded != float(lr) and used(rounded):
            return (f"The update used lr = {rounded!r}, {lr!r} rounded to {np.dtype(narrow).name}, which keeps "
                    f"{'8' if narrow is jnp.bfloat16 else '11'} bits of mantissa (about 3 decimal digits). The "
                    f"one dtype must hold every learning rate as given: float32, like w and grad.")
    return ""
