"""Wrong: the static flag works, but the branch is inverted: it negates when neg is False."""

from functools import partial

import jax


@partial(jax.jit, static_argnums=1)
def apply_sign(x, neg):
    if not neg:
        return -x
    return x
