"""Wrong: reshards correctly but forgets to halve the sum."""

import jax


@jax.jit
def symmetrize(a):
    return a + jax.reshard(a.T, jax.typeof(a).sharding)
