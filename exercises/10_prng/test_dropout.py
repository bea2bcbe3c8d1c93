"""Checks for prng-5 (dropout)."""

import math

import jax
import jax.numpy as jnp
import numpy as np

from grader import checks

SHAPE = (200, 50)
# Strictly positive inputs, so "dropped" (0) and "kept" (x / keep) never meet.
X = (1.0 + np.arange(math.prod(SHAPE), dtype=np.float32) / 1000.0).reshape(SHAPE)


def _dropout(exercise, seed, keep, x=X):
    with checks.no_key_reuse(f"dropout(jax.random.key({seed}), x, {keep})"):
        return np.asarray(exercise.dropout(jax.random.key(seed), jnp.asarray(x), keep))


def test_keeps_about_keep_of_the_elements(exercise):
    n = X.size
    for seed, keep in ((0, 0.8), (1, 0.3)):
        out = _dropout(exercise, seed, keep)
        checks.assert_shape_dtype(out, SHAPE, np.float32, what=f"dropout(key, x, {keep})")
        kept = float((out != 0).mean())
        # The kept count is Binomial(n, keep); 6 standard deviations can't be missed
        # by a correct mask (and the key is fixed, so the outcome never changes).
        bound = 6 * math.sqrt(keep * (1 - keep) / n)
        if abs(kept - keep) > bound:
            checks.fail(f"dropout(key, x, keep={keep}) kept {kept:.3f} of the elements; expected "
                        f"{keep} ± {bound:.3f}. `keep` is the probability of KEEPING an element, "
                        f"not of dropping it: the mask must be True with probability keep.")


def test_kept_elements_are_scaled_by_one_over_keep(exercise):
    keep = 0.8
    out = _dropout(exercise, 2, keep)
    kept = out != 0
    checks.assert_close(out[kept], X[kept] / keep, what=f"the kept elements of dropout(key, x, {keep})",
                        hint="Inverted dropout divides what it keeps by `keep`, so the expected "
                             "output equals the input.")


def test_mask_depends_on_the_key(exercise):
    a, again, b = _dropout(exercise, 3, 0.5), _dropout(exercise, 3, 0.5), _dropout(exercise, 4, 0.5)
    checks.assert_close(again, a, what="dropout(key(3), x, 0.5) called again",
                        hint="An equal key must give the same mask: draw it with jax.random and the "
                             "key argument, not NumPy's global random state.")
    if np.array_equal(a != 0, b != 0):
        checks.fail("dropout gave the same mask for key(3) and key(4): the mask ignores the key. "
                    "Draw it from the key you are given, so each training step (new key) drops "
                    "different elements.")
    # The mask is drawn by jax.random inside the program, not by NumPy seeded from the key.
    what = "dropout(key, x, 0.5)"
    program = checks.program_of(lambda key, x: exercise.dropout(key, x, 0.5), jax.random.key(3),
                                jnp.asarray(X), what=what)
    # A draw has many right values, but one per key: the program read is the one the call runs,
    # not one shown only when traced.
    checks.assert_computes(program, a, what=what)
    checks.assert_uses(program, {"random_bits"}, what=what, tool="jax.random",
                       hint="The mask must come from a jax.random draw with the key argument.")
    checks.assert_keys_used_once(program, what=what)


def test_mask_is_drawn_per_element(exercise):
    # The mechanism first: one kept-or-dropped draw per element. A smaller mask tiled or broadcast
    # over x repeats itself, however random each of its parts looks.
    what = "dropout(key, x, 0.5)"
    program = checks.program_of(lambda key, x: exercise.dropout(key, x, 0.5), jax.random.key(5),
                                jnp.asarray(X), what=what)
    out = _dropout(exercise, 5, 0.5)
    checks.assert_computes(program, out, what=what)
    checks.assert_draws(program, X.size, what=what, values=f"a mask of {X.size} elements")
    mask = out != 0
    rows_equal = (mask == mask[:1]).all()
    cols_equal = (mask == mask[:, :1]).all()
    if rows_equal or cols_equal:
        checks.fail(f"dropout's mask on a {SHAPE} input repeats along the "
                    f"{'rows' if rows_equal else 'columns'}: a smaller mask was broadcast over x. "
                    f"Each element is kept or dropped on its own: draw a mask with x's full shape.")


def test_kept_count_varies_with_the_key(exercise):
    # Elements kept independently: the kept count is Binomial(n, keep), different from key to key.
    # Choosing exactly keep * n elements (a permutation, a top-k of noise) ties each element to the rest.
    counts = [int((_dropout(exercise, seed, 0.5) != 0).sum()) for seed in range(10, 16)]
    if len(set(counts)) == 1:
        checks.fail(f"dropout(key, x, 0.5) kept exactly {counts[0]} of {X.size} elements for each of "
                    f"{len(counts)} keys: the kept count is fixed, so the elements are not kept "
                    f"independently (picking exactly keep * n of them links each one to the others). "
                    f"Give every element its own draw, kept with probability keep "
                    f"(jax.random.bernoulli(key, keep, x.shape)): the count then varies from key to key.",
                    "not-independent")


def test_no_two_elements_share_a_draw(exercise):
    # Kept independently: over many keys, no two elements are always kept or dropped together (or
    # always one exactly when the other is dropped). Two independent elements agree on all KEYS keys
    # with chance 2**-KEYS; a part of the mask copied from another (tiled, mirrored, scrambled)
    # agrees on every key.
    keys, small = 32, X[:16, :16]
    masks = np.stack([(_dropout(exercise, seed, 0.5, small) != 0).reshape(-1) for seed in range(100, 100 + keys)])
    seen: dict[bytes, int] = {}
    for j, column in enumerate(masks.T):
        i = seen.setdefault((column ^ column[0]).tobytes(), j)  # a pair that always differs is tied too
        if i != j:
            at = lambda k: f"({k // small.shape[1]}, {k % small.shape[1]})"  # noqa: E731
            together = "kept or dropped together" if column[0] == masks[0, i] else "one kept exactly when the other was dropped"
            checks.fail(f"dropout(key, x, 0.5) on a {small.shape} input: elements {at(i)} and {at(j)} were "
                        f"{together} for each of {keys} keys, so one draw decides both (a part of the mask "
                        f"copied from another: tiled, mirrored or reordered). Each element is kept on its own "
                        f"draw: jax.random.bernoulli(key, keep, x.shape) gives every element one.",
                        "not-independent")


def test_same_dtype_as_x_and_keep_one_keeps_everything(exercise):
    small = X[:8, :8]
    for dtype in (jnp.bfloat16, jnp.float16):
        x = jnp.asarray(small, dtype=dtype)
        with checks.no_key_reuse(f"dropout(key, {np.dtype(dtype).name} x, 0.5)"):
            out = exercise.dropout(jax.random.key(6), x, 0.5)
        checks.assert_shape_dtype(out, small.shape, dtype, what=f"dropout(key, {np.dtype(dtype).name} x, 0.5)",
                                  hint="The result keeps x's dtype: scaling by 1/keep or building the "
                                       "mask must not promote a low-precision x to float32.")
    with checks.no_key_reuse("dropout(key, x, 1.0)"):
        out = exercise.dropout(jax.random.key(7), jnp.asarray(small), 1.0)
    checks.assert_close(out, small, what="dropout(key, x, keep=1.0)",
                        hint="With keep = 1 every element is kept and scaled by 1/1: x comes back unchanged.")
