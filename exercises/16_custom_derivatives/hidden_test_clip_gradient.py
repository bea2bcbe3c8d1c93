"""Hidden checks for custom-1 (clip_gradient): bounds the visible checks never use."""

import jax
import jax.numpy as jnp
import numpy as np

from grader import checks

X = np.array([0.5, -2.0, 3.0, 0.0, -0.125], np.float32)
G = np.array([0.3, -0.7, 5.0, -4.0, 2.5], np.float32)


def test_clips_to_the_bound_it_is_given(exercise):
    def loss(x, g, bound):
        return jnp.sum(g * exercise.clip_gradient(x, bound))

    hint = ("bwd must clip to [-bound, bound] with the bound it was given (save it in fwd's "
            "residuals), not a fixed number.")
    grad = jax.jit(jax.grad(loss))  # one program: a Python float bound is traced like any scalar
    for bound in (0.25, 3.0):
        got = grad(jnp.asarray(X), jnp.asarray(G), bound)
        checks.assert_close(got, np.clip(G, -bound, bound), what=f"the cotangent for x with bound {bound}",
                            hint=hint)
    bounds = np.array([0.5, 2.0, 4.5], np.float32)
    got = jax.jit(jax.vmap(jax.grad(loss), in_axes=(None, None, 0)))(jnp.asarray(X), jnp.asarray(G),
                                                                    jnp.asarray(bounds))
    want = np.stack([np.clip(G, -b, b) for b in bounds])
    checks.assert_close(got, want, what=f"the cotangent under vmap over bounds {bounds.tolist()}", hint=hint)
