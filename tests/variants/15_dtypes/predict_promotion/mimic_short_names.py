"""Refused spellings: XLA's short element types (f32, bf16, s32...) and a module's attribute as a string,
where the task asks for the dtypes' names."""

BF16_PLUS_F16 = "f32"
INT8_PLUS_UINT8 = "i16"
F16_TIMES_NUMPY_F32 = "f32"
BF16_TIMES_PYTHON_FLOAT = "bf16"
INT32_PLUS_PYTHON_FLOAT = "jnp.float32"
INT8_TIMES_BF16 = "bf16"
ARANGE_DIVIDED = "f32"
ARANGE_FLOOR_DIVIDED = "s32"
