"""Checks for dtype-6 (predict_x64_off): computed here, on this file's own copy of the program."""

import warnings

import jax
import jax.numpy as jnp
import numpy as np

from grader import checks

DOCS = f"See {checks.DOCS}/default_dtypes.html"

BIG_INT64 = lambda: jnp.asarray(np.array([2**40 + 5], np.int64))[0]
FLOAT64_REQUEST = lambda: jnp.zeros(2, jnp.float64)
ROUNDED = lambda: jnp.array(16777217, jnp.float32)
INT8_SUM = lambda: jnp.int8(100) + jnp.int8(100)
UINT8_DIFFERENCE = lambda: jnp.uint8(3) - jnp.uint8(5)
PYTHON_INT = lambda: jnp.asarray(2**40)


def _run(make):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the 64-bit request's warning: the dtype is what is predicted
        return make()


def test_values_in_32_bits(exercise):
    if jax.config.jax_enable_x64:
        checks.fail("jax_enable_x64 is on in the check process: this kata predicts JAX with it off.", "global-setting")
    for name, make, why in [
        ("VALUE_OF_BIG_INT64", BIG_INT64, "the int64 data was cut to int32 on the way in: only the low 32 bits "
                                          "of 2**40 + 5 are kept, and they hold 5"),
        ("VALUE_OF_ROUNDED", ROUNDED, "float32 has 24 bits of mantissa: 16777217 = 2**24 + 1 lies halfway "
                                      "between 2**24 and 2**24 + 2, and rounds to the even one"),
        ("VALUE_OF_INT8_SUM", INT8_SUM, "100 + 100 = 200 does not fit int8 (-128..127): it wraps modulo 256"),
        ("VALUE_OF_UINT8_DIFFERENCE", UINT8_DIFFERENCE, "3 - 5 = -2 does not fit uint8 (0..255): it wraps "
                                                        "modulo 256"),
    ]:
        guess = checks.predicted(exercise, name, what=f"the value of {name.removeprefix('VALUE_OF_')}")
        result = _run(make)
        checks.assert_predicted(guess, int(result), name=name, what=f"int({name.removeprefix('VALUE_OF_')}())",
                                why=f"In {jax.typeof(result)}, {why}. {DOCS}")


def test_types_and_errors_in_32_bits(exercise):
    guess = checks.predicted(exercise, "DTYPE_OF_FLOAT64_REQUEST", what="the dtype of FLOAT64_REQUEST")
    checks.assert_predicted(guess, _run(FLOAT64_REQUEST).dtype, name="DTYPE_OF_FLOAT64_REQUEST",
                            what="FLOAT64_REQUEST().dtype", same=checks.same_dtype,
                            shown=lambda d: repr(getattr(d, "name", d)),
                            why=f"With jax_enable_x64 off a request for float64 quietly gets float32 (with a "
                                f"warning). {DOCS}")
    guess = checks.predicted(exercise, "PYTHON_INT_RAISES", what="whether PYTHON_INT raises")
    try:
        outcome = f"returned {_run(PYTHON_INT)!r}"
    except OverflowError as error:
        outcome = f"raised OverflowError ({error})"
    checks.assert_predicted(guess, outcome.startswith("raised"), name="PYTHON_INT_RAISES",
                            what="whether jnp.asarray(2**40) raises",
                            why=f"It {outcome}: a Python int is checked against int32's range when it becomes "
                                f"an array; only array data is cut silently. {DOCS}")
