"""Right, spelled otherwise: the jax.lax names of the same collectives, and "none" for no collective."""

SUM_OVER_ROWS = "psum"
SUM_OVER_COLUMNS = "none"
ROLL_ROWS = "ppermute"
SCALE = None
TO_COLUMNS = "all_to_all"
TO_COPIES = "all_gather"
