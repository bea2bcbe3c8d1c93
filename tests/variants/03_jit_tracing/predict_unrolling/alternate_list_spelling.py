"""Right, spelled otherwise: the primitives as a list."""

MULS_IN_PYTHON_LOOP = 3
MULS_IN_FORI = 1
BRANCH_PRIMITIVES = ["sin"]
JIT_BRANCH_RAISES = True
