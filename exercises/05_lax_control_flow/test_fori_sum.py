"""Checks for lax-1 (fori_sum)."""

import jax.numpy as jnp
import numpy as np

from grader import checks

# (lower, upper) -> sum of lower <= i < upper
CASES = {(0, 10): 45, (3, 7): 18, (5, 5): 0, (10, 3): 0, (-4, 4): -4, (0, 1000): 499500}
LOOP_PRIMITIVES = {"while", "scan"}


def test_sums_the_range(exercise):
    for (lower, upper), want in CASES.items():
        got = exercise.sum_range(jnp.int32(lower), jnp.int32(upper))
        checks.assert_close(got, want, what=f"sum_range({lower}, {upper})",
                            hint="The loop visits every i with lower <= i < upper, upper excluded, "
                                 "and does nothing at all when upper <= lower.")


def test_sum_stays_an_exact_integer(exercise):
    # 0 + 1 + ... + 19999 = 199990000, past 2**24: a float32 running total rounds on the way there.
    got = exercise.sum_range(jnp.int32(0), jnp.int32(20000))
    dtype = np.dtype(getattr(got, "dtype", type(got)))
    if not np.issubdtype(dtype, np.integer):
        checks.fail(f"sum_range(0, 20000) returned {dtype.name}; expected int32: a sum of integers is an "
                    f"integer. A float running total is exact only up to 2**24 and rounds past it. Start "
                    f"the loop's carry as an int32 zero.", "precision")
    checks.assert_close(got, 199990000, rtol=0, atol=0, what="sum_range(0, 20000)",
                        hint="Add each integer i to an integer running total.")


def test_compiles_once_for_every_range(exercise):
    ranges = [(jnp.int32(lo), jnp.int32(hi)) for lo, hi in CASES]
    with checks.count_compiles() as first:
        exercise.sum_range(*ranges[0])  # the one compile
    with checks.count_compiles() as log:
        for lower, upper in ranges[1:]:
            exercise.sum_range(lower, upper)
    checks.assert_compiles(
        log, what="sum_range()", calls=f"{len(ranges) - 1} calls with new bounds", expected=0,
        warm_up=first,
        why="the bounds are reaching the program as compile-time constants (static arguments): "
            "lax.fori_loop accepts traced bounds, so keep them ordinary arguments and one "
            "program serves every range")
    checks.assert_one_program(
        exercise.sum_range, [ranges[1], ranges[4]], what="sum_range()", calls_text="two new ranges",
        expected=[CASES[3, 7], CASES[-4, 4]], rtol=0, atol=0,
        why="the bounds are reaching the program as compile-time constants (static arguments or Python "
            "ints read while tracing): lax.fori_loop accepts traced bounds, so keep them ordinary "
            "arguments and one program serves every range")
    checks.assert_jitted(exercise.sum_range, *ranges[0], what="sum_range", expected=CASES[0, 10], rtol=0, atol=0)


def test_loop_stays_one_loop(exercise):
    # Bounds closed over as Python ints: an answer that makes them static and
    # loops in Python would copy the body once per step here.
    sizes = {n: checks.jaxpr_size(lambda: exercise.sum_range(0, n)) for n in (10, 1000)}
    checks.assert_not_unrolled(sizes, what="sum_range(0, n)")
    what = "sum_range(-4, 29)"
    program = checks.program_of(exercise.sum_range, jnp.int32(-4), jnp.int32(29), what=what)
    checks.assert_computes(program, sum(range(-4, 29)), what=what, rtol=0, atol=0)
    checks.assert_uses(
        program, LOOP_PRIMITIVES, what=what, tool="lax.fori_loop",
        hint="This exercise is about looping inside the compiled program: a formula for the sum "
             "gives the numbers without the loop. Add i to the running total in the body of a "
             f"lax.fori_loop. See {checks.DOCS}/_autosummary/jax.lax.fori_loop.html")
    checks.assert_loop_returns(program, LOOP_PRIMITIVES, what=what, tool="lax.fori_loop", trips=(33, 33),
                               hint="One trip per integer in the range, adding it to the running total.")
    checks.assert_loops_rolled(program, what=what)
