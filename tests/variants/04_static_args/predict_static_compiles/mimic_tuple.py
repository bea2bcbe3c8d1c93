"""A refused form: the calls as a tuple, where the task asks for a set."""

COMPILING_CALLS = (9, 7, 6, 5, 4, 2, 1)
COMPILES_STATIC = 3
COMPILES_TRACED = 1
