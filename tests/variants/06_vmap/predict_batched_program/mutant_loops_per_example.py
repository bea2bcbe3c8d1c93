"""Wrong: thinks vmap runs the function once per example, and that a cond stays a cond whatever its predicate."""

PYTHON_RUNS = 100
CHOOSER_PER_EXAMPLE = "cond"
CHOOSER_SHARED = "cond"
