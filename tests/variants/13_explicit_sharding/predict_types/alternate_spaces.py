"""Right, written otherwise: spaces after the commas, single quotes."""

TRANSPOSED = "float32[8, 16@data]"
DOUBLED = 'float32[16@data, 8]'
TIMES_W = "float32[16@data, 4]"
SUM_OVER_ROWS = "float32[8]"
SUM_OVER_COLUMNS = "float32[16@data]"
FIRST_HALF = "float32[8@data, 8]"
GRAM_RAISES = True
