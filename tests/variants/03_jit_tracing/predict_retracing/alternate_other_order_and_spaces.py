"""Right, written otherwise: the set in another order, over two lines, and the type with spaces and an
annotation."""

TRACED_CALLS = {9, 7, 5,
                4, 3, 1}
FACTOR_TYPE_IN_CALL_3: str = " ~int32[] "
