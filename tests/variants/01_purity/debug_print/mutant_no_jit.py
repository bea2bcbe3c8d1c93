"""Wrong: without jit a plain print sees real values, but the function is no longer compiled."""


def damped_step(x, velocity):
    new_x = x + 0.9 * velocity
    print("position:", new_x)
    return new_x
