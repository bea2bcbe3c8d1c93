"""Right, written otherwise: integer literals with underscores and in hexadecimal."""

VALUE_OF_BIG_INT64 = 0x5
DTYPE_OF_FLOAT64_REQUEST = "float32"
VALUE_OF_ROUNDED = 16_777_216
VALUE_OF_INT8_SUM = -56
VALUE_OF_UINT8_DIFFERENCE = 0xFE
PYTHON_INT_RAISES = True
