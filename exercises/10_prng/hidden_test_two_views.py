"""Hidden checks for prng-2 (two_views): a sigma, shape and key the visible checks do not show."""

import jax
import jax.numpy as jnp
import numpy as np

from grader import checks

SIGMA = 0.5
X = np.linspace(-3.0, 3.0, 48 * 40, dtype=np.float32).reshape(48, 40)


def test_independent_views_at_an_unseen_sigma(exercise):
    a, b = exercise.two_views(jax.random.key(11), jnp.asarray(X), SIGMA)
    for name, view in (("view_a", a), ("view_b", b)):
        checks.assert_shape_dtype(view, X.shape, np.float32, what=f"two_views(key, float32[48,40] x, {SIGMA}): {name}")
    noise_a, noise_b = np.asarray(a) - X, np.asarray(b) - X
    # 1920 pairs: the sample correlation of independent noise has standard error ~0.023.
    r = float(np.corrcoef(noise_a.ravel(), noise_b.ravel())[0, 1])
    if not abs(r) < 0.15:
        checks.fail(f"two_views(key, x, {SIGMA}): the two views' noises have correlation {r:.2f}; "
                    f"independent noise has correlation near 0. Split the key and draw each view's "
                    f"noise with its own subkey.")
    # 1920 draws: the sample std is within 1.6% of sigma per standard error; 10% is > 6 of them.
    for name, noise in (("view_a", noise_a), ("view_b", noise_b)):
        std = float(noise.std())
        if abs(std - SIGMA) > 0.1 * SIGMA:
            checks.fail(f"two_views(key, x, sigma={SIGMA}): {name} - x has std {std:.4f}; expected "
                        f"{SIGMA}. Scale standard normal noise by the sigma argument, not a fixed number.")
