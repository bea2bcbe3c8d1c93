"""Checks for perf-6 (donation_mismatch)."""

import jax
import jax.numpy as jnp
import numpy as np

from grader import checks

FAQ = f"{checks.DOCS}/faq.html#buffer-donation"
DECAY = 0.9
SHAPE = (4, 8)


def _batches(n=3):
    rng = np.random.default_rng(4)
    return [rng.normal(size=SHAPE).astype(np.float32) for _ in range(n)]


def test_average_buffer_is_donated(exercise):
    average = jnp.ones(SHAPE, dtype=jnp.bfloat16)
    x = jnp.asarray(_batches(1)[0])
    fits = ("XLA reuses a donated buffer only for an output that fits it (same shape and dtype), and a "
            "bfloat16 average combined with float32 x promotes the result to float32. The running average "
            "must come back in the dtype it came in.")
    try:
        checks.assert_donated(lambda: exercise.ema_update(average, x, DECAY), {"average": average},
                              programs=1, what="ema_update(average, x, decay)", hint=fits)
    except checks.KataFailure as failure:
        if "still alive" not in str(failure):
            raise
        checks.fail("after ema_update(average, x, decay) the donated bfloat16 average is still alive "
                    "(is_deleted() is False): the donation was silently dropped, so the old and the new "
                    f"average were both held in memory. {fits} See {FAQ}", "not-donated")


def test_running_average_stays_bfloat16_with_the_right_values(exercise):
    # The dtype after every step first (the bug), then the values after them all.
    batches = _batches()
    average = jnp.zeros(SHAPE, dtype=jnp.bfloat16)
    want = np.zeros(SHAPE)
    for step, x in enumerate(batches, 1):
        average = exercise.ema_update(average, jnp.asarray(x), DECAY)  # rebinding: the old one is donated
        checks.assert_shape_dtype(average, SHAPE, jnp.bfloat16,
                                  what=f"ema_update(bfloat16 average, float32 x, decay) at step {step}",
                                  hint="The running average is kept in bfloat16: return it in the dtype it "
                                       "came in (average.dtype), which is also what lets it reuse the "
                                       "donated buffer.")
        want = DECAY * want + (1 - DECAY) * x
    checks.assert_close(np.asarray(average, dtype=np.float32), want, rtol=2e-2, atol=2e-2,
                        what=f"{len(batches)} ema_update steps from zeros",
                        hint="Each step is decay * average + (1 - decay) * x (to bfloat16 precision).")
