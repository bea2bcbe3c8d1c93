"""Reference solution for dtype-6: with 64 bits off, data is cut to 32 bits, rounded past 2**24, and small ints wrap."""

import jax.numpy as jnp
import numpy as np

BIG_INT64 = lambda: jnp.asarray(np.array([2**40 + 5], np.int64))[0]
FLOAT64_REQUEST = lambda: jnp.zeros(2, jnp.float64)
ROUNDED = lambda: jnp.array(16777217, jnp.float32)
INT8_SUM = lambda: jnp.int8(100) + jnp.int8(100)
UINT8_DIFFERENCE = lambda: jnp.uint8(3) - jnp.uint8(5)
PYTHON_INT = lambda: jnp.asarray(2**40)


# Your predictions, worked out:
VALUE_OF_BIG_INT64 = 5  # cut to int32: 2**40 + 5 keeps its low 32 bits, which hold 5
DTYPE_OF_FLOAT64_REQUEST = "float32"  # 64-bit requests get the 32-bit type
VALUE_OF_ROUNDED = 16777216  # 2**24 + 1 is a tie between 2**24 and 2**24 + 2: rounds to the even one
VALUE_OF_INT8_SUM = -56  # 200 wraps modulo 256 into int8's range
VALUE_OF_UINT8_DIFFERENCE = 254  # -2 wraps modulo 256 into uint8's range
PYTHON_INT_RAISES = True  # a Python int is checked against int32's range: OverflowError
