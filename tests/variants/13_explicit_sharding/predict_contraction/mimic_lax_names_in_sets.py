"""Refused spellings in the right form: sets of jax.lax's names, where the task asks for the HLO's."""

PLAIN_RAISES = True
TYPE_OF_COPIES = "float32[8,4]"
TYPE_OF_SPLIT = "float32[8@data,4]"
COLLECTIVES_OF_COPIES = {"psum"}
COLLECTIVES_OF_GATHERED = {"all_gather"}
