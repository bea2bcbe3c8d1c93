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


def test_values_in_32_bits(predictions):
    with checks.judging(predictions) as judge:
        cases = [
            ("VALUE_OF_BIG_INT64", BIG_INT64, "the int64 data was cut to int32 on the way in: only the low 32 bits "
                                              "of 2**40 + 5 are kept, and they hold 5"),
            ("VALUE_OF_ROUNDED", ROUNDED, "float32 has 24 bits of mantissa: 16777217 = 2**24 + 1 lies halfway "
                                          "between 2**24 and 2**24 + 2, and rounds to the even one"),
            ("VALUE_OF_INT8_SUM", INT8_SUM, "100 + 100 = 200 does not fit int8 (-128..127): it wraps modulo 256"),
            ("VALUE_OF_UINT8_DIFFERENCE", UINT8_DIFFERENCE, "3 - 5 = -2 does not fit uint8 (0..255): it wraps "
                                                            "modulo 256"),
        ]
        guesses = {name: judge.guess(name, what=f"the value of {name.removeprefix('VALUE_OF_')}")
                   for name, _, _ in cases}
        if jax.config.jax_enable_x64:
            checks.fail("jax_enable_x64 is on in the check process: this kata predicts JAX with it off.",
                        "global-setting")
        for name, make, why in cases:
            result = _run(make)
            judge.compare(guesses[name], int(result), name=name, form=checks.forms.INTEGER,
                          what=f"int({name.removeprefix('VALUE_OF_')}())",
                          why=f"In {jax.typeof(result)}, {why}. {DOCS}")


def test_types_and_errors_in_32_bits(predictions):
    with checks.judging(predictions) as judge:
        dtype = judge.guess("DTYPE_OF_FLOAT64_REQUEST", what="the dtype of FLOAT64_REQUEST")
        raises = judge.guess("PYTHON_INT_RAISES", what="whether PYTHON_INT raises")
        judge.compare(dtype, _run(FLOAT64_REQUEST).dtype, name="DTYPE_OF_FLOAT64_REQUEST",
                      what="FLOAT64_REQUEST().dtype", form=checks.forms.DTYPE_NAME,
                      why=f"With jax_enable_x64 off a request for float64 quietly gets float32 (with a warning). "
                          f"{DOCS}")
        try:
            outcome = f"returned {_run(PYTHON_INT)!r}"
        except OverflowError as error:
            outcome = f"raised OverflowError ({error})"
        judge.compare(raises, outcome.startswith("raised"), name="PYTHON_INT_RAISES", form=checks.forms.FLAG,
                      what="whether jnp.asarray(2**40) raises",
                      why=f"It {outcome}: a Python int is checked against int32's range when it becomes an array; "
                          f"only array data is cut silently. {DOCS}")
