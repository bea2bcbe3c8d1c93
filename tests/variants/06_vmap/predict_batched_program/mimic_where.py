"""A refused spelling: where, a function's name; the primitive it records is select_n."""

PYTHON_RUNS = 1
CHOOSER_PER_EXAMPLE = "where"
CHOOSER_SHARED = "cond"
