"""Values right, tool wrong: a fixed-length scan runs every Newton step and masks the late ones; a
while_loop whose condition reads a flag its body clears then makes one trip that undoes a doubling of
the root and of the step count. The while loop returns the results and stops on a carry, but makes one
trip where the task's makes one per update."""

import jax
import jax.numpy as jnp
from jax import lax

MAX_STEPS = 100


@jax.jit
def newton_sqrt(a, tol):
    def masked(state, _):
        x, done, steps = state
        new = (x + a / x) / 2
        change = jnp.abs(new - x)
        x = jnp.where(done, x, new)
        steps = jnp.where(done, steps, steps + 1)
        return (x, done | (change <= tol), steps), None

    (x, _, steps), _ = lax.scan(masked, (a, jnp.bool_(False), jnp.int32(0)), None, length=MAX_STEPS)

    def cond(state):
        return state[2]

    def body(state):
        r, k, go = state
        return r * 0.5, k + 1, jnp.logical_and(go, False)

    root, k, _ = lax.while_loop(cond, body, (x * 2, steps - 1, jnp.bool_(True)))
    return root, k
