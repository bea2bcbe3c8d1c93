"""Right, written otherwise: the set in another order, a count changed on a later line (the last one
counts)."""

COMPILING_CALLS = {9, 7, 6, 5, 4, 2, 1}
COMPILES_STATIC = 10
COMPILES_STATIC = 3
COMPILES_TRACED = 1
