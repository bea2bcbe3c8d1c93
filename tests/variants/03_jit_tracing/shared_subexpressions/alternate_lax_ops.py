"""Right, unusually: lax primitives spelled out, with the ratio and the gap each named once."""

from jax import lax


def score(x1, x2):
    ratio = lax.div(x1, x2)
    gap = lax.sub(ratio, lax.exp(x2))
    return lax.mul(gap, lax.add(lax.sin(ratio), gap))
