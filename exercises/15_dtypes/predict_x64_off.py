"""Predict: what 32 bits do to numbers, with jax_enable_x64 off.

JAX computes in 32 bits unless jax_enable_x64 is on (off by default, and in
these katas). A request for a 64-bit type quietly gets the 32-bit one, with a
warning at most; NumPy int64 data is cut to int32 on the way in, and values
past 2**31 wrap around (only the low 32 bits are kept). A Python int that does
not fit int32 is an error instead. float32 holds every integer only up to
2**24 = 16777216: beyond, it rounds to a neighbour (to the even one in a tie).
Integer arithmetic wraps silently: int8 and uint8 live modulo 256.
Docs: https://docs.jax.dev/en/latest/default_dtypes.html

Task (predict): with jax_enable_x64 off, and without running anything, write
down the value (a Python int) or dtype each result below has, and whether
PYTHON_INT raises. The checks compute them and, where you were wrong, show
what JAX did and why.
The checks read each prediction as a literal from this file's text; they
never import or run it.
"""

import jax.numpy as jnp
import numpy as np

BIG_INT64 = lambda: jnp.asarray(np.array([2**40 + 5], np.int64))[0]
FLOAT64_REQUEST = lambda: jnp.zeros(2, jnp.float64)
ROUNDED = lambda: jnp.array(16777217, jnp.float32)
INT8_SUM = lambda: jnp.int8(100) + jnp.int8(100)
UINT8_DIFFERENCE = lambda: jnp.uint8(3) - jnp.uint8(5)
PYTHON_INT = lambda: jnp.asarray(2**40)


# Your predictions: replace each ... with a literal (no running first!); each VALUE_OF_ a Python int
VALUE_OF_BIG_INT64 = ...  # int(BIG_INT64())
DTYPE_OF_FLOAT64_REQUEST = ...  # FLOAT64_REQUEST().dtype.name, a string such as "int16"
VALUE_OF_ROUNDED = ...  # int(ROUNDED())
VALUE_OF_INT8_SUM = ...  # int(INT8_SUM())
VALUE_OF_UINT8_DIFFERENCE = ...  # int(UINT8_DIFFERENCE())
PYTHON_INT_RAISES = ...  # does PYTHON_INT() raise? True or False
