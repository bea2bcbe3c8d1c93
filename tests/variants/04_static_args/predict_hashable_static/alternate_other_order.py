"""Right, written otherwise: the set in another order, the number annotated."""

COMPILING_CALLS = {7, 6, 4, 3, 1}
RAISING_CALL: int = 8
