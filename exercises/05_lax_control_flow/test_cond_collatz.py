"""Checks for lax-5 (cond_collatz)."""

import jax
import jax.numpy as jnp

from grader import checks

STEPS = {6: 3, 7: 22, 1: 4, 2: 1, 27: 82, 1024: 512}
# Past 2**24 float32 no longer holds every integer: a detour through floats rounds these.
BIG_STEPS = {2**25 + 2: 2**24 + 1, 2**25 - 1: 3 * (2**25 - 1) + 1, 2**30 + 6: 2**29 + 3}


def _call(exercise, n):
    try:
        return exercise.collatz_step(jnp.int32(n))
    except TypeError as error:
        if isinstance(error, jax.errors.JAXTypeError) or "true_fun" not in str(error):
            raise  # not the branches disagreeing: the plugin explains tracer errors itself
        lines = str(error).splitlines()
        detail = next((line for line in lines if "has type" in line), lines[0] if lines else "")
        checks.fail(f"collatz_step({n}) raised TypeError: {detail.strip()} lax.cond traces both "
                    f"branches and they must return the same shape and dtype: `n / 2` is true "
                    f"division, which gives float32, while `3 * n + 1` stays int32. Halve n in a "
                    f"way that keeps it an integer. "
                    f"See {checks.DOCS}/_autosummary/jax.lax.cond.html", "wrong-shape")


def test_steps_even_and_odd_numbers(exercise):
    for n, want in STEPS.items():
        got = _call(exercise, n)
        checks.assert_shape_dtype(got, (), jnp.int32, what=f"collatz_step({n})",
                                  hint="Collatz numbers are integers: keep both branches int32 "
                                       "rather than making both float.")
        checks.assert_close(got, want, what=f"collatz_step({n})")
    for n, want in BIG_STEPS.items():
        got = _call(exercise, n)
        checks.assert_shape_dtype(got, (), jnp.int32, what=f"collatz_step({n})")
        if int(got) != want:
            checks.fail(f"collatz_step({n}) returned {int(got)}; expected {want}. The result is "
                        f"int32 but passed through float32 on the way: float32 holds every integer "
                        f"only up to 2**24, so large int32 values come back rounded. Keep the even "
                        f"branch in integer arithmetic from start to end.", "precision")


def test_compiles_once_for_even_and_odd(exercise):
    numbers = [jnp.int32(n) for n in STEPS]
    with checks.count_compiles() as first:
        _call(exercise, 4)  # the one compile
    with checks.count_compiles() as log:
        for n in numbers:
            exercise.collatz_step(n)
    checks.assert_compiles(
        log, what="collatz_step()", calls=f"{len(numbers)} calls with new int32 values", expected=0,
        warm_up=first,
        why="n is reaching the program as a compile-time constant (a static argument, so a "
            "Python `if` can read it): choose the branch at run time with lax.cond or jnp.where "
            "and keep n traced")
    checks.assert_one_program(
        exercise.collatz_step, [(jnp.int32(6),), (jnp.int32(2**20 + 1),)], what="collatz_step()",
        calls_text="an even and an odd n", expected=[3, 3 * (2**20 + 1) + 1], rtol=0, atol=0,
        why="n is reaching the program as a compile-time constant (a static argument, so a "
            "Python `if` can read it): choose the branch at run time with lax.cond or jnp.where "
            "and keep n traced")
    # "Keep the jit": called on an array, the one traced program runs, whole (no branch chosen in Python).
    checks.assert_jitted(exercise.collatz_step, jnp.int32(27), what="collatz_step", expected=STEPS[27],
                         rtol=0, atol=0, entirely=True, single=True)


def test_steps_a_batch_under_vmap(exercise):
    # Under vmap the predicate is a batch of booleans: lax.cond turns into a
    # select that runs both branches, which only works if neither needs a value.
    numbers = jnp.asarray(list(STEPS), dtype=jnp.int32)
    _call(exercise, 4)
    got = jax.vmap(exercise.collatz_step)(numbers)
    checks.assert_close(got, jnp.asarray(list(STEPS.values())), what="vmap(collatz_step)(ns)",
                        hint="Keep n traced: a Python `if` or a static n cannot take a batch.")
