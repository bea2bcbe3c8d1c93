"""Wrong: thinks a Python if records both branches, and that jit can branch on a traced flag."""

MULS_IN_PYTHON_LOOP = 3
MULS_IN_FORI = 1
BRANCH_PRIMITIVES = {"sin", "cos"}
JIT_BRANCH_RAISES = False
