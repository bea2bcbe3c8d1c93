"""Wrong: thinks out_sharding=P() gathers the operands, and that gathered operands still need their products summed."""

PLAIN_RAISES = True
TYPE_OF_COPIES = "float32[8,4]"
TYPE_OF_SPLIT = "float32[8@data,4]"
COLLECTIVES_OF_COPIES = {"all-gather"}
COLLECTIVES_OF_GATHERED = {"all-gather", "all-reduce"}
