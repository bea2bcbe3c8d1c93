"""Values right, idea skipped: dropping jit makes the Python `if` work (values are concrete), but nothing is compiled."""

TAU = 0.9


def pinball_loss(residual):
    if residual > 0:
        return TAU * residual
    return (TAU - 1) * residual
