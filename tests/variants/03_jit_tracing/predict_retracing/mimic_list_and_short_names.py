"""Refused spellings of the right calls and type: a list where the task asks for a set, and XLA's short
i32, which jax.typeof never prints."""

TRACED_CALLS = [9, 7, 5, 4, 3, 1]
FACTOR_TYPE_IN_CALL_3 = "~i32[]"
