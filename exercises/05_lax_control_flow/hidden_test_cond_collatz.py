"""Hidden checks for lax-5 (cond_collatz): numbers the visible checks never use."""

import jax
import jax.numpy as jnp

from grader import checks

STEPS = {3: 10, 10: 5, 15: 46, 40: 20, 97: 292, 5000: 2500}


def test_steps_unseen_numbers(exercise):
    try:
        for n, want in STEPS.items():
            got = exercise.collatz_step(jnp.int32(n))
            checks.assert_shape_dtype(got, (), jnp.int32, what=f"collatz_step({n})")
            checks.assert_close(got, want, what=f"collatz_step({n})",
                                hint="Half of n for even n, 3n + 1 for odd n, whatever n is.")
        got = jax.vmap(exercise.collatz_step)(jnp.asarray(list(STEPS), dtype=jnp.int32))
    except TypeError as error:
        if isinstance(error, jax.errors.JAXTypeError) or "true_fun" not in str(error):
            raise  # not the branches disagreeing: the plugin explains tracer errors itself
        lines = str(error).splitlines()
        detail = next((line for line in lines if "has type" in line), lines[0] if lines else "")
        checks.fail(f"collatz_step raised TypeError: {detail.strip()} Both branches of lax.cond must "
                    f"return the same dtype: `n / 2` gives float32, so halve n in a way that keeps "
                    f"it an integer. See {checks.DOCS}/_autosummary/jax.lax.cond.html", "wrong-shape")
    checks.assert_close(got, jnp.asarray(list(STEPS.values())), what="vmap(collatz_step)(ns) on new numbers")
