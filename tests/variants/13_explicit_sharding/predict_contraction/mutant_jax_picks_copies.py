"""Wrong: thinks JAX picks copies for a bare matmul, and that out_sharding decides nothing about the type."""

PLAIN_RAISES = False
TYPE_OF_COPIES = "float32[8,4]"
TYPE_OF_SPLIT = "float32[8,4]"
COLLECTIVES_OF_COPIES = {"all-reduce"}
COLLECTIVES_OF_GATHERED = {"all-gather"}
