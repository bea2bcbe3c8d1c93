"""Right, written otherwise: single quotes, annotations, and a prediction changed on a later line."""

SUM_OVER_ROWS: str = 'all-reduce'
SUM_OVER_COLUMNS: None = None
ROLL_ROWS = "all-gather"
ROLL_ROWS = 'collective-permute'
SCALE = None
TO_COLUMNS = 'all-to-all'
TO_COPIES = 'all-gather'
