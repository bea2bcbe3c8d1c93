"""Computed, not predicted: the arrays built at import and read back with int()."""

import jax.numpy as jnp
import numpy as np

VALUE_OF_BIG_INT64 = int(jnp.asarray(np.array([2**40 + 5], dtype=np.int64))[0])
DTYPE_OF_FLOAT64_REQUEST = "float32"
VALUE_OF_ROUNDED = int(jnp.asarray(16777217, dtype=jnp.float32))
VALUE_OF_INT8_SUM = int(jnp.int8(100) + jnp.int8(100))
VALUE_OF_UINT8_DIFFERENCE = int(jnp.uint8(3) - jnp.uint8(5))
PYTHON_INT_RAISES = True
