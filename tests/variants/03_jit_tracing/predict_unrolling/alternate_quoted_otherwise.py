"""Right, written otherwise: single quotes, an annotation, a trailing comment."""

MULS_IN_PYTHON_LOOP: int = 3  # once per iteration
MULS_IN_FORI = 1
BRANCH_PRIMITIVES = {'sin'}
JIT_BRANCH_RAISES = True
