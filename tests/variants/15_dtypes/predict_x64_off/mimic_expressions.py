"""Refused: values as arithmetic and the dtype as a jnp type, worked out at import instead of written."""

import jax.numpy as jnp

VALUE_OF_BIG_INT64 = (2**40 + 5) % 2**32
DTYPE_OF_FLOAT64_REQUEST = jnp.float32
VALUE_OF_ROUNDED = 2**24
VALUE_OF_INT8_SUM = 200 - 256
VALUE_OF_UINT8_DIFFERENCE = 256 - 2
PYTHON_INT_RAISES = True
