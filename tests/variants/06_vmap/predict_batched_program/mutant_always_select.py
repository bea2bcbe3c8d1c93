"""Wrong: thinks every cond under vmap becomes a select, even with one predicate for the whole batch."""

PYTHON_RUNS = 1
CHOOSER_PER_EXAMPLE = "select_n"
CHOOSER_SHARED = "select_n"
