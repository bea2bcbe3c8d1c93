"""A refused form: the calls as a list, where the task asks for a set."""

COMPILING_CALLS = [1, 3, 4, 6, 7]
RAISING_CALL = 8
