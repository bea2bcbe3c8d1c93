"""Wrong: the Python loop runs fine without jit, but every step is dispatched op by op."""


def newton_step(y, x):
    return 0.5 * (y + x / y)


def newton_sqrt(x, n):
    y = x
    for _ in range(n):
        y = newton_step(y, x)
    return y
