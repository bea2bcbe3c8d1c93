"""Wrong: hard-codes the answers to the visible checks' inputs (8 devices); any other layout gets nonsense."""


def local_shape(x):
    known = {(16, 8): (2, 8), (8, 16): (8, 2), (8, 6): (2, 3)}
    return known.get(tuple(x.shape), tuple(x.shape))
