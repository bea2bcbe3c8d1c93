"""Checks for static-5 (shape_buckets)."""

from collections import Counter

import jax
import numpy as np

from grader import checks


def _inputs(lengths, seed):
    rng = np.random.default_rng(seed)
    return [rng.normal(2.0, 3.0, size=int(n)).astype(np.float32) for n in lengths]


def test_matches_mean_of_unpadded_input(exercise):
    for x in _inputs([1, 3, 5, 100, 255, 256], seed=1):
        checks.assert_close(
            exercise.bucketed_mean(x), np.mean(x.astype(np.float64)), rtol=1e-5, atol=1e-5,
            what=f"bucketed_mean(x) for a length-{len(x)} x",
            hint="The padding must not count: mask the padded tail out of the sum, and divide by "
                 "the true length, not the padded one.")


def test_compiles_at_most_once_per_bucket(exercise):
    # 100 lengths in 1..256 from a fixed seed: 81 distinct lengths over 7 power-of-two buckets.
    lengths = [int(n) for n in np.random.default_rng(8).integers(1, 257, size=100)]
    inputs = _inputs(lengths, seed=2)
    # Start from empty in-memory caches so the count does not depend on what earlier
    # checks compiled.
    jax.clear_caches()
    done = 0
    with checks.count_compiles() as log:
        for x in inputs:
            exercise.bucketed_mean(x)
            done += 1
            # JAX 0.10 stages a NumPy array given to jnp.asarray through a small copy
            # program (`jit(stage)`) per new shape: moving data, not the computation counted.
            log.names[:] = [name for name in log.names if name != "jit(stage)"]
            if log.count > 9:
                break  # already failed: spare a wrong answer the remaining compiles
    top = ", ".join(f"{name} x{k}" for name, k in Counter(log.names).most_common(3))
    distinct = len(set(lengths[:done]))
    checks.assert_compiles(
        log, what="bucketed_mean()", at_most=9,
        calls=f"the first {done} of 100 inputs ({distinct} distinct lengths from 1 to 256)",
        why=f"Compiled most often: {top}. Every new input shape is a new program: pad x with "
            f"NumPy to next_power_of_two(len(x)) before anything reaches JAX, and pass the true "
            f"length as a traced argument (not static) to one jitted function that masks padding")
