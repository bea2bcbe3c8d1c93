"""Right, written otherwise: single quotes and annotations."""

PYTHON_RUNS: int = 1
CHOOSER_PER_EXAMPLE: str = 'select_n'
CHOOSER_SHARED = 'cond'
