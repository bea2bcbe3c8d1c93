"""A refused form: a count written as a float, where the task asks for a Python int."""

MULS_IN_PYTHON_LOOP = 3.0
MULS_IN_FORI = 1
BRANCH_PRIMITIVES = {"sin"}
JIT_BRANCH_RAISES = True
