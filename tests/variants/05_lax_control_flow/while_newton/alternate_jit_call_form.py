"""Right, unusually: jax.jit applied by a call, not a decorator, and the loop state is a dict."""

import jax
import jax.numpy as jnp
from jax import lax

MAX_STEPS = 100


def _newton(a, tol):
    def going(s):
        return (s["change"] > tol) & (s["steps"] < MAX_STEPS)

    def update(s):
        new = 0.5 * (s["x"] + a / s["x"])
        return {"x": new, "change": jnp.abs(new - s["x"]), "steps": s["steps"] + 1}

    out = lax.while_loop(going, update, {"x": a, "change": jnp.float32(jnp.inf), "steps": jnp.int32(0)})
    return out["x"], out["steps"]


newton_sqrt = jax.jit(_newton)
