"""Values right, idea skipped: dropping jit makes the Python `if` work, but nothing is compiled."""


def apply_sign(x, neg):
    if neg:
        return -x
    return x
