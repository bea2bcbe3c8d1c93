"""Wrong: thinks the split stays on the first dimension whatever happens to it, and that a.T @ a just works."""

TRANSPOSED = "float32[8@data,16]"
DOUBLED = "float32[16@data,8]"
TIMES_W = "float32[16@data,4]"
SUM_OVER_ROWS = "float32[8@data]"
SUM_OVER_COLUMNS = "float32[16@data]"
FIRST_HALF = "float32[8,8]"
GRAM_RAISES = False
