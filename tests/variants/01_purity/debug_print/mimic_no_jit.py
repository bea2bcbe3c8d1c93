"""Values right, idea skipped: without jit a plain print sees real values, but nothing is compiled."""


def damped_step(x, velocity):
    new_x = x + 0.9 * velocity
    print("position:", new_x)
    return new_x
