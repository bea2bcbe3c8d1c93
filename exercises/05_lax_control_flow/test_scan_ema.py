"""Checks for lax-3 (scan_ema)."""

import jax.numpy as jnp
import numpy as np

from grader import checks

RNG = np.random.default_rng(5)
SERIES = RNG.normal(size=12).astype(np.float32)
VECTORS = RNG.normal(size=(7, 3)).astype(np.float32)
LONG = RNG.normal(size=1000).astype(np.float32)


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
                hint="The first output is xs[0] itself; every later step mixes the previous "
                     "average with the new x and emits the new average. lax.scan returns "
                     "(last carry, stacked ys).")


def test_compiles_once_across_decays(exercise):
    xs = jnp.asarray(SERIES)
    decays = [jnp.float32(d) for d in (0.1, 0.5, 0.75, 0.99)]
    with checks.count_compiles() as first:
        exercise.ema(xs, jnp.float32(0.9))  # the one compile
    with checks.count_compiles() as log:
        for decay in decays:
            exercise.ema(xs, decay)
    checks.assert_compiles(
        log, what="ema()", calls=f"{len(decays)} calls with new decays and the same series",
        expected=0, warm_up=first,
        why="decay is reaching the program as a compile-time constant (a static argument): "
            "pass it as an ordinary traced argument; the scan body can close over it")
    checks.assert_one_program(
        exercise.ema, [(xs, decay) for decay in decays[:2]], what="ema()", calls_text="two new decays",
        expected=[ema_reference(SERIES, float(decay)) for decay in decays[:2]],
        why="decay is reaching the program as a compile-time constant (a static argument): "
            "pass it as an ordinary traced argument; the scan body can close over it")
    checks.assert_jitted(exercise.ema, xs, jnp.float32(0.9), what="ema", expected=ema_reference(SERIES, 0.9))


def test_one_rolled_scan_whatever_the_length(exercise):
    decay = jnp.float32(0.9)
    sizes = {n: checks.jaxpr_size(exercise.ema, jnp.zeros(n, jnp.float32), decay) for n in (10, 1000)}
    checks.assert_not_unrolled(sizes, what="ema(xs, decay)",
                               hint="lax.scan traces its step function once for any length.")
    what = "ema(xs of shape (1000,), decay)"
    program = checks.program_of(exercise.ema, jnp.asarray(LONG), decay, what=what)
    # Read before the program is run: an unroll=True scan of 1000 steps takes minutes to compile.
    checks.assert_loops_rolled(program, what=what,
                               hint="unroll= trades program size for speed; here the loop must "
                                    "stay one loop.")
    checks.assert_computes(program, ema_reference(LONG, 0.9), what=what, rtol=1e-4, atol=1e-5)
    checks.assert_uses(program, {"scan"}, what=what, tool="lax.scan",
                       hint="A formula with powers of decay, or a matrix of weights, gives the "
                            "numbers without the loop the exercise practises: thread the average "
                            "through the scan's carry.")
    checks.assert_loop_returns(program, {"scan"}, what=what, tool="lax.scan", steps=(999, 1000),
                               walks={0: ("xs", 0)})
    loops = program.loops()
    if len(loops) > 1:
        checks.fail(f"{what}: the program holds {len(loops)} loops "
                    f"({', '.join(eqn.primitive.name for eqn in loops)}); the task asks for one "
                    f"lax.scan, whose final carry and stacked outputs are the two results.",
                    "wrong-tool")
