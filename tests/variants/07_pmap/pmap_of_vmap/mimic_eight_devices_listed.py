"""Mimic: pmap told to use jax.devices()[:8]: right on 8 devices, broken on a machine with fewer."""

import jax


def affine(a, b, c):
    return a @ b + c


def affine_everywhere(a, b, c):
    return jax.pmap(jax.vmap(affine), devices=jax.devices()[:8], axis_size=8)(a, b, c)
