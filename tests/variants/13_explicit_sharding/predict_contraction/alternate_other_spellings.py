"""Right, spelled otherwise: short dtype names, jax.lax names for the collectives, a list and a bare name."""

PLAIN_RAISES = True
TYPE_OF_COPIES = "f32[8,4]"
TYPE_OF_SPLIT = "f32[8@data,4]"
COLLECTIVES_OF_COPIES = ["psum"]
COLLECTIVES_OF_GATHERED = "all_gather"
