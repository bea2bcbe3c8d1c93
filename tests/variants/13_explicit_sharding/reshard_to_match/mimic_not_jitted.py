"""Values and layout right, jit dropped: reshards a.T into a's layout and adds, eagerly, op by op; the
task's symmetrize is jitted."""

import jax


def symmetrize(a):
    a_t = jax.reshard(a.T, jax.typeof(a).sharding)
    return (a + a_t) / 2
