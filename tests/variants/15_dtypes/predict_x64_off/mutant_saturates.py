"""Wrong: thinks values too big for the type saturate at its limits, and that a Python int wraps silently like array data."""

VALUE_OF_BIG_INT64 = 2147483647
DTYPE_OF_FLOAT64_REQUEST = "float32"
VALUE_OF_ROUNDED = 16777217
VALUE_OF_INT8_SUM = 127
VALUE_OF_UINT8_DIFFERENCE = 0
PYTHON_INT_RAISES = False
