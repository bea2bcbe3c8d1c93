"""Wrong: thinks out_axes moves nothing, and that the inner vmap's axis ends up outside."""

SHAPE_A = (5, 4)
SHAPE_B = (5, 4)
SHAPE_C = (2, 4)
SHAPE_D = (5, 2, 4)
SHAPE_E = (2, 5, 4)
