"""Reference solution for static-7: a static argument is found by hash and ==: fields for a frozen dataclass, identity for a plain object."""

import dataclasses
from functools import partial

import jax
import jax.numpy as jnp


@dataclasses.dataclass(frozen=True)
class Frozen:
    scale: float


class Plain:
    def __init__(self, scale):
        self.scale = scale


@partial(jax.jit, static_argnums=1)
def apply(x, config):
    scale = config[0] if isinstance(config, (tuple, list)) else config.scale
    return x * scale


def calls():
    """The calls, in order: run them with `for call in calls(): call()`."""
    x = jnp.ones(3)
    plain = Plain(2.0)
    return [
        lambda: apply(x, Frozen(2.0)),  # call 1
        lambda: apply(x, Frozen(2.0)),  # call 2
        lambda: apply(x, Frozen(3.0)),  # call 3
        lambda: apply(x, plain),  # call 4
        lambda: apply(x, plain),  # call 5
        lambda: apply(x, Plain(2.0)),  # call 6
        lambda: apply(x, (2.0,)),  # call 7
        lambda: apply(x, [2.0]),  # call 8
    ]


# Your predictions, worked out:
# 1: the first. 2: an equal frozen dataclass, the same key. 3: another field value. 4: a plain object, keyed by
# identity. 5: that same object again. 6: a new plain object: a new key though its field is the same. 7: a
# tuple, new. 8: a list cannot be hashed: jit raises.
COMPILING_CALLS = {1, 3, 4, 6, 7}
RAISING_CALL = 8
