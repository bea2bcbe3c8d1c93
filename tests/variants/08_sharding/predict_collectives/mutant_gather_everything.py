"""Wrong: thinks every cross-device step gathers the whole array first, and that a sum along rows needs communication too."""

SUM_OVER_ROWS = "all-gather"
SUM_OVER_COLUMNS = "all-reduce"
ROLL_ROWS = "all-gather"
SCALE = None
TO_COLUMNS = "all-gather"
TO_COPIES = "all-gather"
