"""Values right, idea skipped: a Python for loop over a traced array is unrolled into one step per element."""


def sum_of_squares(values):
    total = 0.0
    for v in values:
        total = total + v ** 2
    return total
