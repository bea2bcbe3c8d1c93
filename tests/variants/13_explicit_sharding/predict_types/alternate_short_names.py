"""Right, spelled otherwise: jax's short dtype names, spaces after commas, and 1 for True."""

TRANSPOSED = "f32[8, 16@data]"
DOUBLED = "f32[16@data, 8]"
TIMES_W = "f32[16@data, 4]"
SUM_OVER_ROWS = "f32[8]"
SUM_OVER_COLUMNS = "f32[16@data]"
FIRST_HALF = "f32[8@data, 8]"
GRAM_RAISES = 1
