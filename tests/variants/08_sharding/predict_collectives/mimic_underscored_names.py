"""Refused spellings: the HLO's collectives with underscores, as no HLO text writes them."""

SUM_OVER_ROWS = "all_reduce"
SUM_OVER_COLUMNS = None
ROLL_ROWS = "collective_permute"
SCALE = None
TO_COLUMNS = "all-to-all"
TO_COPIES = "all-gather"
