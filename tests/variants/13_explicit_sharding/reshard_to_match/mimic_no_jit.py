"""Right values and layout, but symmetrize is not the jitted function the task names: it runs op by op
(a derived mutant, drop-jit, that passed every check once)."""

import jax


def symmetrize(a):
    a_t = jax.reshard(a.T, jax.typeof(a).sharding)
    return (a + a_t) / 2
