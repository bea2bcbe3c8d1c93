"""Wrong: thinks only shapes and dtypes of arrays count (no weak types, no keyword calls), and that a Python int becomes a float."""

TRACED_CALLS = {1, 4, 9}
FACTOR_TYPE_IN_CALL_3 = "~float32[]"
