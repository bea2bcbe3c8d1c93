"""Checks for prng-1 (independent_samples)."""

import jax
import numpy as np

from grader import checks

N = 8


def _draw(exercise, seed, n=N):
    # A fresh key object per call: the reuse checker tracks key objects, and an
    # equal key made anew is the legitimate way to ask for the same numbers again.
    what = f"n_samples(jax.random.key({seed}), {n})"
    with checks.no_key_reuse(what):
        return np.asarray(exercise.n_samples(jax.random.key(seed), n))


def test_returns_n_float32_samples(exercise):
    for n in (1, 5):
        out = exercise.n_samples(jax.random.key(0), n)
        checks.assert_shape_dtype(out, (n,), np.float32, what=f"n_samples(key, {n})",
                                  hint="Return one float32 sample per draw, together in one array.")


def test_draws_are_not_copies_of_one_number(exercise):
    out = np.asarray(exercise.n_samples(jax.random.key(0), N))
    if len(np.unique(out)) != N:
        from jax.errors import KeyReuseError

        try:  # which mistake: several draws from one key, or one draw copied?
            with jax.debug_key_reuse(True):
                exercise.n_samples(jax.random.key(0), N)
        except KeyReuseError:
            checks.fail(f"n_samples(key, {N}) returned {out}: some samples are equal. They were "
                        f"drawn from the same key, and the same key always gives the same numbers: "
                        f"drawing from one key n times gives one number n times. A single draw "
                        f"whose shape holds all n samples gives n independent numbers. "
                        f"See {checks.DOCS}/random-numbers.html", "key-reuse")
        checks.fail(f"n_samples(key, {N}) returned {out}: some samples are equal. One draw copied "
                    f"n times is one sample, not n: ask the draw itself for all n numbers (it takes "
                    f"a shape). See {checks.DOCS}/random-numbers.html")


def test_uses_each_key_once(exercise):
    _draw(exercise, 0)
    # The samples come from jax.random, inside the program: not from NumPy seeded by the key.
    what = f"n_samples(key, {N})"
    program = checks.program_of(lambda key: exercise.n_samples(key, N), jax.random.key(0), what=what)
    checks.assert_no_callbacks(program, what=what)
    checks.assert_uses(program, {"random_bits"}, what=what, tool="jax.random",
                       hint="The key must feed a jax.random draw: randomness made any other way "
                            "does not follow JAX's keys under jit, vmap or the reuse checker.")
    checks.assert_keys_used_once(program, what=what)
    checks.assert_draws(program, N, what=what, values=f"{N} independent samples")
    # A permutation draws values too: a shuffled or negated copy of half the samples passes the count.
    checks.assert_not_rearranged(_draw(exercise, 3, 2000), what="n_samples(key, 2000)")


def test_same_key_gives_same_samples(exercise):
    checks.assert_close(_draw(exercise, 7), _draw(exercise, 7), what="n_samples(key(7), 8) called again",
                        hint="Randomness in JAX comes only from the key: an equal key must give "
                             "equal samples. Use jax.random with the key you are given, not NumPy's "
                             "or Python's global random state.")


def test_different_keys_give_different_samples(exercise):
    a, b = _draw(exercise, 0), _draw(exercise, 1)
    if np.allclose(a, b):
        checks.fail(f"n_samples gave the same samples {a} for key(0) and key(1): the result does "
                    f"not depend on the key. Draw from the key argument, not from a key made "
                    f"inside the function.")


def test_samples_look_standard_normal(exercise):
    # Fixed key: the result is deterministic. For 2000 true standard normals the
    # mean is within 0.12 of 0 (5 standard errors) and the std within 0.12 of 1 (7).
    out = _draw(exercise, 3, 2000)
    mean, std = float(out.mean()), float(out.std())
    if abs(mean) > 0.12 or abs(std - 1.0) > 0.12:
        checks.fail(f"2000 samples from n_samples have mean {mean:.3f} and std {std:.3f}; "
                    f"standard normals have mean 0 and std 1. Draw with jax.random.normal "
                    f"(jax.random.uniform is uniform on [0, 1)).")
