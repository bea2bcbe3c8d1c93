"""Right, spelled otherwise: dtype objects and jax's short names instead of strings."""

import jax.numpy as jnp
import numpy as np

BF16_PLUS_F16 = jnp.float32
INT8_PLUS_UINT8 = np.dtype("int16")
F16_TIMES_NUMPY_F32 = "f32"
BF16_TIMES_PYTHON_FLOAT = jnp.bfloat16
INT32_PLUS_PYTHON_FLOAT = "f32"
INT8_TIMES_BF16 = "bf16"
ARANGE_DIVIDED = jnp.float32
ARANGE_FLOOR_DIVIDED = "i32"
