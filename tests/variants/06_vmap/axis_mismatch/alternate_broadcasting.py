"""Right, unusually: no vmap at all; NumPy broadcasting does the batching."""


def add_three(a, b, c):
    return a + b + c


def add_batched(a, b, c):
    return a + b[None, :] + c.T
