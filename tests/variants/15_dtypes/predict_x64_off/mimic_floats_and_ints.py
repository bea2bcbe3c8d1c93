"""Refused forms: values as floats where the task asks for Python ints, 1 where it asks for True."""

VALUE_OF_BIG_INT64 = 5.0
DTYPE_OF_FLOAT64_REQUEST = "float32"
VALUE_OF_ROUNDED = 16777216.0
VALUE_OF_INT8_SUM = -56.0
VALUE_OF_UINT8_DIFFERENCE = 254.0
PYTHON_INT_RAISES = 1
