"""Right, spelled otherwise: a list in another order, and jax.typeof's short dtype name."""

TRACED_CALLS = [9, 7, 5, 4, 3, 1]
FACTOR_TYPE_IN_CALL_3 = "~i32[]"
