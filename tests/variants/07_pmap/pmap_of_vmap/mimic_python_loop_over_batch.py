"""Right values on the right devices, but a Python loop over each device's examples instead of vmap:
the program holds one traced copy of affine per example (a derived mutant, vmap-to-loop, that passed
every check once)."""

import jax
import jax.numpy as jnp


def affine(a, b, c):
    return a @ b + c


def _each_example(a, b, c):
    return jnp.stack([affine(a[j], b[j], c[j]) for j in range(a.shape[0])])


def affine_everywhere(a, b, c):
    return jax.pmap(_each_example)(a, b, c)
