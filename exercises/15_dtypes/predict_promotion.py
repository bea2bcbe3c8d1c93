"""Predict: the dtype of a mixed operation.

JAX promotes by its lattice, not by NumPy's value-based rules: the result
type depends only on the operands' types. Any float beats any int. Two types
of the same kind promote to the wider (int8 + int16 is int16); a signed and
an unsigned int meet at a signed type wide enough for both (uint8 + int8 is
int16). bfloat16 and float16 hold neither each other, so they meet at
float32. Python scalars are weak: they adapt to the array (bfloat16 * 2.0 is
bfloat16), except that a float scalar still makes an int array float, in the
default float32. NumPy scalars are strong and promote like arrays. True
division of integers gives a float; floor division keeps integers.
Docs: https://docs.jax.dev/en/latest/type_promotion.html

Task (predict): without running anything, write down the dtype of each
result below (a name such as "float16"). The checks compute them and, where
you were wrong, show what JAX did and why.
The checks read each prediction as a literal from this file's text; they
never import or run it.
"""

import jax.numpy as jnp
import numpy as np

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


# Your predictions: replace each ... with a dtype's name as a string, as .dtype.name gives it ("int16",
# not "i16" or jnp.int16) (no running first!)
BF16_PLUS_F16 = ...
INT8_PLUS_UINT8 = ...
F16_TIMES_NUMPY_F32 = ...
BF16_TIMES_PYTHON_FLOAT = ...
INT32_PLUS_PYTHON_FLOAT = ...
INT8_TIMES_BF16 = ...
ARANGE_DIVIDED = ...
ARANGE_FLOOR_DIVIDED = ...
