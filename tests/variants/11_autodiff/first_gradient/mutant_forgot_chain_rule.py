"""Wrong: a hand-written derivative that drops the factor 2 from 2x² (gives 2x + 3)."""

import jax


def f(x):
    return 2 * x**2 + 3 * x + 3


def df(x):
    return 2 * x + 3


def f_and_df(x):
    return f(x), df(x)
