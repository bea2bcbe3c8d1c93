"""Right, spelled otherwise: the calls as a list."""

COMPILING_CALLS = [1, 3, 4, 6, 7]
RAISING_CALL = 8
