"""Values right, loop wrong: 100 masked Newton steps in a scan; the while loop only passes the root
through and counts down the steps the scan took, so it decides nothing."""

import jax
import jax.numpy as jnp
from jax import lax

MAX_STEPS = 100


@jax.jit
def newton_sqrt(a: jnp.ndarray, tol: jnp.ndarray) -> tuple[jnp.ndarray, jnp.ndarray]:
    # the iteration, written out step by step with masks
    def masked(state, _):
        x, done, steps = state
        new = (x + a / x) / 2
        change = jnp.abs(new - x)
        x = jnp.where(done, x, new)
        steps = jnp.where(done, steps, steps + 1)
        return (x, done | (change <= tol), steps), None

    (x, _, steps), _ = lax.scan(masked, (a, jnp.bool_(False), jnp.int32(0)), None, length=MAX_STEPS)

    def keep_going(state):
        return state[3] > 0

    def update(state):
        r1, r2, k, left = state
        r = (r1 + r2) * 0.5
        return r, r, k + 1, jnp.maximum(left - 1, 0)

    root, _, k, _ = lax.while_loop(keep_going, update, (x, x, jnp.int32(0), steps))
    return root, k
