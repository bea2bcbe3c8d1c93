"""A refused form: the primitives as a list, where the task asks for a set."""

MULS_IN_PYTHON_LOOP = 3
MULS_IN_FORI = 1
BRANCH_PRIMITIVES = ["sin"]
JIT_BRANCH_RAISES = True
