"""Checks for dtype-5 (predict_promotion): computed here, on this file's own copy of the program."""

import jax
import jax.numpy as jnp
import numpy as np

from grader import checks

DOCS = f"See {checks.DOCS}/type_promotion.html"

RESULTS = {
    "BF16_PLUS_F16": lambda: jnp.ones(3, jnp.bfloat16) + jnp.ones(3, jnp.float16),
    "INT8_PLUS_UINT8": lambda: jnp.ones(3, jnp.int8) + jnp.ones(3, jnp.uint8),
    "F16_TIMES_NUMPY_F32": lambda: jnp.ones(3, jnp.float16) * np.float32(2),
    "BF16_TIMES_PYTHON_FLOAT": lambda: jnp.ones(3, jnp.bfloat16) * 2.0,
    "INT32_PLUS_PYTHON_FLOAT": lambda: jnp.ones(3, jnp.int32) + 1.5,
    "INT8_TIMES_BF16": lambda: jnp.ones(3, jnp.int8) * jnp.ones(3, jnp.bfloat16),
    "ARANGE_DIVIDED": lambda: jnp.arange(4) / 2,
    "ARANGE_FLOOR_DIVIDED": lambda: jnp.arange(4) // 2,
}


WHY = {
    "BF16_PLUS_F16": "The bfloat16 type has float32's range, float16 more precision: neither holds the other, so the "
                     "lattice joins them at float32",
    "INT8_PLUS_UINT8": "A signed and an unsigned integer meet at the narrowest signed type holding both ranges",
    "F16_TIMES_NUMPY_F32": "A NumPy scalar is strongly typed: it promotes like a float32 array",
    "BF16_TIMES_PYTHON_FLOAT": "A Python float is weakly typed: it takes the array's own float dtype",
    "INT32_PLUS_PYTHON_FLOAT": "A weak Python float still makes an integer array a float one, in JAX's default "
                               "float32 (marked weak)",
    "INT8_TIMES_BF16": "Any float beats any integer, whatever their widths: the float's own dtype",
    "ARANGE_DIVIDED": "True division of integers gives a float, JAX's default float32",
    "ARANGE_FLOOR_DIVIDED": "Floor division of integers stays in the integers (jnp.arange makes int32)",
}


def test_the_dtypes_of_mixed_operations(predictions):
    with checks.judging(predictions) as judge:
        guesses = {name: judge.guess(name, what=f"the dtype of {name}") for name in RESULTS}
        for name, make in RESULTS.items():
            result = make()
            judge.compare(guesses[name], result.dtype, name=name, what=f"the dtype of {name}",
                          form=checks.forms.DTYPE_NAME, why=f"{WHY[name]} (jax.typeof: {jax.typeof(result)}). {DOCS}")
