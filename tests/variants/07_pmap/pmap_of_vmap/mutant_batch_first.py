"""Wrong: in_axes=1 makes pmap map the batch axis onto devices (only `batch` of them busy)
and leaves the device axis to vmap: the result comes out (batch, devices, m, p)."""

import jax


def affine(a, b, c):
    return a @ b + c


def affine_everywhere(a, b, c):
    return jax.pmap(jax.vmap(affine), in_axes=1, out_axes=0)(a, b, c)
