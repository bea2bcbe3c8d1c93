"""Checks for prng-2 (two_views)."""

import jax
import jax.numpy as jnp
import numpy as np

from grader import checks

SIGMA = 0.1
X = np.linspace(-1.0, 1.0, 64 * 64, dtype=np.float32).reshape(64, 64)


def _noises(exercise, seed):
    with checks.no_key_reuse(f"two_views(jax.random.key({seed}), x)"):
        a, b = exercise.two_views(jax.random.key(seed), jnp.asarray(X), SIGMA)
    return np.asarray(a) - X, np.asarray(b) - X


def _views(exercise, seed):
    """two_views(key(seed), x) and its program: a draw has many right values, but one per key, so the
    program read is the one the call runs, not one shown only when traced."""
    views = exercise.two_views(jax.random.key(seed), jnp.asarray(X), SIGMA)
    what = "two_views(key, x)"
    program = checks.program_of(lambda key, x: exercise.two_views(key, x, SIGMA), jax.random.key(seed),
                                jnp.asarray(X), what=what)
    checks.assert_computes(program, views, what=what)
    return program


def test_uses_each_key_once(exercise):
    _noises(exercise, 0)
    program = _views(exercise, 0)
    checks.assert_keys_used_once(program, what="two_views(key, x)")


def test_views_get_different_noise(exercise):
    # Reuse checker off here, to show the symptom itself.
    a, b = exercise.two_views(jax.random.key(0), jnp.asarray(X), SIGMA)
    if np.array_equal(np.asarray(a), np.asarray(b)):
        from jax.errors import KeyReuseError

        try:  # which mistake: two draws from one key, or one draw added twice?
            with jax.debug_key_reuse(True):
                exercise.two_views(jax.random.key(0), jnp.asarray(X), SIGMA)
        except KeyReuseError:
            checks.fail("two_views returned two identical views: both noises were drawn from the "
                        "same key, and the same key always gives the same numbers. Each draw needs "
                        "a key of its own: derive two new keys from the one you are given and draw "
                        f"each view's noise with one of them. See {checks.DOCS}/random-numbers.html",
                        "key-reuse")
        checks.fail("two_views returned two identical views: one noise draw was added to both. "
                    "Each view needs noise of its own, drawn with a key of its own derived from "
                    f"the one you are given. See {checks.DOCS}/random-numbers.html")
    # The noise comes from jax.random inside the program, not from NumPy seeded by the key.
    what = "two_views(key, x)"
    program = _views(exercise, 0)
    checks.assert_uses(program, {"random_bits"}, what=what, tool="jax.random",
                       hint="The noise must come from jax.random draws with keys derived from the "
                            "key argument.")


def test_noise_of_the_two_views_is_uncorrelated(exercise):
    # The mechanism first: two views of 4096 values need 8192 values drawn, not one draw moved or
    # mirrored into the second view (as uncorrelated as a true second draw, and no more independent).
    what = "two_views(key, x)"
    program = _views(exercise, 1)
    checks.assert_draws(program, 2 * X.size, what=what, values=f"two views of {X.size} noise values each")
    noise_a, noise_b = _noises(exercise, 1)
    # A permutation draws values too: view_b's noise a shuffled copy of view_a's passes the count.
    # Noise read back as view - x is rounded to x's float32 spacing (at most 2**-23 here).
    checks.assert_not_rearranged(np.concatenate([noise_a.ravel(), noise_b.ravel()]),
                                 what="the two views' noises together", tolerance=2.0**-22)
    # 4096 independent pairs: the sample correlation has standard error 1/64, so
    # |r| < 0.1 holds for independent noise (6 standard errors) with a fixed key.
    r = float(np.corrcoef(noise_a.ravel(), noise_b.ravel())[0, 1])
    if not abs(r) < 0.1:
        checks.fail(f"the two views' noises have correlation {r:.2f}; independent noise has "
                    f"correlation near 0. Noise derived from one draw (the same array, or its "
                    f"negative) is not independent: give each view its own key from jax.random.split.")


def test_noise_has_std_sigma(exercise):
    # 4096 draws: the sample std is within 5% of sigma (4.5 standard errors).
    for name, noise in zip(("view_a", "view_b"), _noises(exercise, 2)):
        std = float(noise.std())
        if abs(std - SIGMA) > 0.05 * SIGMA:
            checks.fail(f"{name} - x has std {std:.4f}; expected sigma = {SIGMA}. Scale standard "
                        f"normal noise by sigma for both views.")


def test_views_are_a_function_of_the_key(exercise):
    first, again = _noises(exercise, 3), _noises(exercise, 3)
    checks.assert_close(again, first, what="two_views(key(3), x) called a second time",
                        hint="An equal key must give equal views: take all randomness from the key "
                             "argument (jax.random), not from NumPy's global state.")
    other = _noises(exercise, 4)
    if np.allclose(first[0], other[0]):
        checks.fail("two_views gave the same noise for key(3) and key(4): the noise ignores the key "
                    "argument. Split the key you are given rather than making a new one inside.")
