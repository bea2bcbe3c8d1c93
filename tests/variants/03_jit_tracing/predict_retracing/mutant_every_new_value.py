"""Wrong: thinks a new value means a new trace, and forgets that a Python scalar is weakly typed."""

TRACED_CALLS = {1, 2, 3, 4, 5, 6, 7, 8, 9}
FACTOR_TYPE_IN_CALL_3 = "int32[]"
