"""Wrong: thinks a Python loop becomes a loop in the program, and fori_loop an unrolled one."""

MULS_IN_PYTHON_LOOP = 1
MULS_IN_FORI = 3
BRANCH_PRIMITIVES = {"sin"}
JIT_BRANCH_RAISES = True
