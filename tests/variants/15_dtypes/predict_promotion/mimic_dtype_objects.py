"""Refused: dtype objects (read from modules at import), where the task asks for the dtypes' names."""

import jax.numpy as jnp
import numpy as np

BF16_PLUS_F16 = jnp.float32
INT8_PLUS_UINT8 = np.dtype("int16")
F16_TIMES_NUMPY_F32 = "float32"
BF16_TIMES_PYTHON_FLOAT = jnp.bfloat16
INT32_PLUS_PYTHON_FLOAT = "float32"
INT8_TIMES_BF16 = "bfloat16"
ARANGE_DIVIDED = jnp.float32
ARANGE_FLOOR_DIVIDED = "int32"
