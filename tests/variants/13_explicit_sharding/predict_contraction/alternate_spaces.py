"""Right, written otherwise: spaces in the types, single quotes in the sets."""

PLAIN_RAISES = True
TYPE_OF_COPIES = "float32[8, 4]"
TYPE_OF_SPLIT = "float32[8@data, 4]"
COLLECTIVES_OF_COPIES = {'all-reduce'}
COLLECTIVES_OF_GATHERED = {'all-gather'}
