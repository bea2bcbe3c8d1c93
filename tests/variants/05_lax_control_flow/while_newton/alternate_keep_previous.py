"""Right, unusually: carry a dict holding the previous and current x and compare them in cond."""

import jax
import jax.numpy as jnp
from jax import lax

MAX_STEPS = 100


@jax.jit
def newton_sqrt(a, tol):
    def not_done(s):
        moved = jnp.abs(s["x"] - s["previous"])
        return ((s["steps"] == 0) | (moved > tol)) & (s["steps"] < MAX_STEPS)

    def step(s):
        return {"previous": s["x"], "x": 0.5 * (s["x"] + a / s["x"]), "steps": s["steps"] + 1}

    out = lax.while_loop(not_done, step, {"previous": a, "x": a, "steps": 0})
    return out["x"], out["steps"]
