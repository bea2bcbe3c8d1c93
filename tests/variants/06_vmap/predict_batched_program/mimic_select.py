"""A refused spelling: select, lax.select's name; the primitive it records is select_n."""

PYTHON_RUNS = 1
CHOOSER_PER_EXAMPLE = "select"
CHOOSER_SHARED = "cond"
