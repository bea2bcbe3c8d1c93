"""Checks for lax-4 (scan_pytree_carry)."""

import jax.numpy as jnp
import numpy as np

from grader import checks

RNG = np.random.default_rng(11)
SERIES = RNG.normal(size=9).astype(np.float32)
CARRY_HINT = ("A scan carry keeps the shape and dtype of init at every step, and a Python 0.0 is a "
              "scalar: start the total from something built out of xs that already has the shape "
              "of one step, a row of xs.")


def reference(xs):
    totals = np.cumsum(xs, axis=0)
    counts = np.arange(1, len(xs) + 1).reshape((-1,) + (1,) * (xs.ndim - 1))
    return {"total": totals[-1], "count": len(xs)}, totals / counts


def test_running_mean_of_numbers_and_vectors_in_one_scan(exercise):
    got = exercise.running_mean(jnp.asarray(SERIES))
    checks.assert_close(got, reference(SERIES), what="running_mean(xs of shape (9,))",
                        hint="means[t] divides the total so far by the count so far, both "
                             "including step t.")
    for d in (3, 5):
        xs = RNG.normal(size=(6, d)).astype(np.float32)
        try:
            got = exercise.running_mean(jnp.asarray(xs))
        except TypeError as error:
            lines = str(error).splitlines()
            detail = next((line for line in lines if "has type" in line), lines[0] if lines else "")
            checks.fail(f"running_mean(xs of shape {xs.shape}) raised TypeError: "
                        f"{detail.strip()} {CARRY_HINT} "
                        f"See {checks.DOCS}/_autosummary/jax.lax.scan.html", "wrong-shape")
        checks.assert_close(got, reference(xs), what=f"running_mean(xs of shape {xs.shape})",
                            hint=CARRY_HINT)
    # The fix belongs in the carry's init: the loop stays one scan, whatever the length.
    sizes = {n: checks.jaxpr_size(exercise.running_mean, jnp.zeros(n, jnp.float32))
             for n in (8, 512)}
    checks.assert_not_unrolled(sizes, what="running_mean(xs)",
                               hint="Keep the single lax.scan; fix its init rather than the loop.")
    what = "running_mean(xs of shape (6, 3))"
    xs = RNG.normal(size=(6, 3)).astype(np.float32)
    program = checks.program_of(exercise.running_mean, jnp.asarray(xs), what=what)
    checks.assert_computes(program, reference(xs), what=what)
    checks.assert_uses(program, {"scan"}, what=what, tool="lax.scan",
                       hint="A cumulative sum gives the running means without the scan whose carry "
                            "this exercise is about: keep the lax.scan and fix the carry it starts from.")
    checks.assert_loop_returns(program, {"scan"}, what=what, tool="lax.scan", steps=(5, 6), walks={0: ("xs", 0)})
    checks.assert_loops_rolled(program, what=what,
                               hint="Keep the scan rolled: unroll= copies the body into the program.")
