"""Checks for lax-3 (scan_ema)."""

import jax.numpy as jnp
import numpy as np

from grader import checks

RNG = np.random.default_rng(5)
SERIES = RNG.normal(size=12).astype(np.float32)
VECTORS = RNG.normal(size=(7, 3)).astype(np.float32)


def ema_reference(xs, decay):
    out = [xs[0]]
    for x in xs[1:]:
        out.append(decay * out[-1] + (1 - decay) * x)
    out = np.stack(out).astype(np.float32)
    return out[-1], out


def test_smooths_numbers_and_vectors(exercise):
    for xs in (SERIES, VECTORS):
        for decay in (0.9, 0.5):
            got = exercise.ema(jnp.asarray(xs), jnp.float32(decay))
            checks.assert_close(
                got, ema_reference(xs, decay), what=f"ema(xs of shape {xs.shape}, {decay})",
                hint="Start the carry at xs[0], update it with s = decay * s + (1 - decay) * x "
                     "and emit the new s as y; lax.scan returns (last carry, stacked ys).")


def test_compiles_once_across_decays(exercise):
    xs = jnp.asarray(SERIES)
    decays = [jnp.float32(d) for d in (0.1, 0.5, 0.75, 0.99)]
    exercise.ema(xs, jnp.float32(0.9))  # the one compile
    with checks.count_compiles() as log:
        for decay in decays:
            exercise.ema(xs, decay)
    checks.assert_compiles(
        log, what="ema()", calls=f"{len(decays)} calls with new decays and the same series",
        expected=0,
        why="decay is reaching the program as a compile-time constant (a static argument): "
            "pass it as an ordinary traced argument; the scan body can close over it")
    checks.assert_jitted(exercise.ema, xs, jnp.float32(0.9), what="ema")


def test_program_size_does_not_grow_with_length(exercise):
    decay = jnp.float32(0.9)
    sizes = {n: checks.jaxpr_size(exercise.ema, jnp.zeros(n, jnp.float32), decay) for n in (10, 1000)}
    checks.assert_not_unrolled(sizes, what="ema(xs, decay)",
                               hint="lax.scan(step, xs[0], xs) traces step once for any length.")
