"""Right, spelled otherwise: the jnp and lax names of the same primitives."""

PYTHON_RUNS = 1
CHOOSER_PER_EXAMPLE = "jnp.where"
CHOOSER_SHARED = "lax.cond"
