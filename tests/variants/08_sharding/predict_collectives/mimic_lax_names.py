"""Refused spellings: jax.lax's names of the collectives (psum, ppermute, all_to_all, all_gather) and the
string "none", where the task asks for the compiled HLO's names and None."""

SUM_OVER_ROWS = "psum"
SUM_OVER_COLUMNS = "none"
ROLL_ROWS = "ppermute"
SCALE = None
TO_COLUMNS = "all_to_all"
TO_COPIES = "all_gather"
