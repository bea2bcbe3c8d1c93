"""Refused spellings and forms: XLA's short f32, jax.lax's psum in a list, a bare all_gather where the task
asks for a set of HLO names."""

PLAIN_RAISES = True
TYPE_OF_COPIES = "f32[8,4]"
TYPE_OF_SPLIT = "f32[8@data,4]"
COLLECTIVES_OF_COPIES = ["psum"]
COLLECTIVES_OF_GATHERED = "all_gather"
