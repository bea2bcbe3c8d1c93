"""Reference solution for dtype-5: JAX's promotion lattice, weak Python scalars and strong NumPy ones."""

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


# Your predictions, worked out:
BF16_PLUS_F16 = "float32"  # neither 16-bit float holds the other
INT8_PLUS_UINT8 = "int16"  # signed and unsigned meet at a signed type wide enough for both
F16_TIMES_NUMPY_F32 = "float32"  # a NumPy scalar is strong
BF16_TIMES_PYTHON_FLOAT = "bfloat16"  # a Python float is weak: it takes the array's dtype
INT32_PLUS_PYTHON_FLOAT = "float32"  # a float makes an int array float, in the default float32
INT8_TIMES_BF16 = "bfloat16"  # any float beats any int: the float's own dtype
ARANGE_DIVIDED = "float32"  # true division of integers gives the default float
ARANGE_FLOOR_DIVIDED = "int32"  # floor division keeps integers
