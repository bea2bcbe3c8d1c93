"""Wrong: thinks 64-bit requests are granted, and that float32 rounds 2**24 + 1 up."""

VALUE_OF_BIG_INT64 = 5
DTYPE_OF_FLOAT64_REQUEST = "float64"
VALUE_OF_ROUNDED = 16777218
VALUE_OF_INT8_SUM = -56
VALUE_OF_UINT8_DIFFERENCE = 254
PYTHON_INT_RAISES = True
