"""Right, written otherwise: single quotes, annotations, a prediction changed on a later line."""

BF16_PLUS_F16: str = 'float32'
INT8_PLUS_UINT8 = "int8"
INT8_PLUS_UINT8 = "int16"
F16_TIMES_NUMPY_F32 = 'float32'
BF16_TIMES_PYTHON_FLOAT = "bfloat16"
INT32_PLUS_PYTHON_FLOAT = "float32"
INT8_TIMES_BF16 = "bfloat16"
ARANGE_DIVIDED = "float32"
ARANGE_FLOOR_DIVIDED = "int32"
