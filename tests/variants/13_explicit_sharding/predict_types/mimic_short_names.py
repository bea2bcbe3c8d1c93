"""Refused spellings: XLA's short f32, which jax.typeof never prints, and 1 where the task asks for True."""

TRANSPOSED = "f32[8, 16@data]"
DOUBLED = "f32[16@data, 8]"
TIMES_W = "f32[16@data, 4]"
SUM_OVER_ROWS = "f32[8]"
SUM_OVER_COLUMNS = "f32[16@data]"
FIRST_HALF = "f32[8@data, 8]"
GRAM_RAISES = 1
