"""Values right eagerly, but bwd clips with NumPy on the host: under jit the cotangent is a tracer and it fails."""

import jax
import numpy as np


@jax.custom_vjp
def clip_gradient(x, bound):
    return x


def _fwd(x, bound):
    return x, bound


def _bwd(bound, g):
    return np.clip(np.asarray(g), -bound, bound), None


clip_gradient.defvjp(_fwd, _bwd)
