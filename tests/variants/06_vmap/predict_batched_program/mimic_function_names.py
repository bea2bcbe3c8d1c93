"""Refused spellings: the functions that record the primitives (jnp.where, lax.cond), where the task asks
for the primitive in the program."""

PYTHON_RUNS = 1
CHOOSER_PER_EXAMPLE = "jnp.where"
CHOOSER_SHARED = "lax.cond"
