"""A refused form: the raising call as a set of one, where the task asks for one call's number."""

COMPILING_CALLS = {1, 3, 4, 6, 7}
RAISING_CALL = {8}
