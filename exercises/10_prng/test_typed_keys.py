"""Checks for prng-6 (typed_keys)."""

import jax
import jax.numpy as jnp
import numpy as np

from grader import checks


def _is_typed(x):
    return isinstance(x, jax.Array) and jnp.issubdtype(x.dtype, jax.dtypes.prng_key)


def _looks_raw(x):
    return getattr(x, "dtype", None) == np.uint32 and np.shape(x)[-1:] == (2,)


def _raw_from_split():
    # Raw key data that is not [0, seed]: a split key's bits look random.
    return jax.random.split(jax.random.PRNGKey(0))[1]


def _draws(keys):
    """Three normals from each key of a batch (raw or typed), in the batch's shape."""
    keys = jnp.asarray(keys)
    typed = keys if jnp.issubdtype(keys.dtype, jax.dtypes.prng_key) else jax.random.wrap_key_data(keys)
    flat = typed.reshape(-1)
    return jax.vmap(lambda k: jax.random.normal(k, (3,)))(flat).reshape(typed.shape + (3,))


def test_to_typed_makes_typed_keys(exercise):
    cases = ((jax.random.PRNGKey(3), ()), (jax.random.split(jax.random.PRNGKey(0), 4), (4,)),
             (jax.random.split(jax.random.PRNGKey(1), 6).reshape(2, 3, 2), (2, 3)))
    for raw, shape in cases:
        out = exercise.to_typed(raw)
        if not _is_typed(out) or out.shape != shape:
            got = f"{getattr(out, 'dtype', type(out).__name__)}{list(getattr(out, 'shape', ()))}"
            raw_back = _looks_raw(out)
            checks.fail(f"to_typed(raw keys of shape {raw.shape}) returned {got}; expected a typed key "
                        f"array of shape {shape} (dtype key<fry>), one key per pair of uint32 words. "
                        + ("That is still raw key data: to JAX it is two numbers, not a key. jax.random "
                           "can wrap raw data as typed keys, keeping the same bits."
                           if raw_back else "Wrap the data as typed keys, keeping every leading axis."),
                        "untyped-key" if raw_back else "wrong-shape")
        checks.assert_close(_draws(out), _draws(jax.random.wrap_key_data(raw)),
                            what=f"draws from each key of to_typed(raw keys of shape {raw.shape})",
                            hint="Every key in the batch keeps its own bits: wrap the whole array of "
                                 "data, each pair of words becoming the key at its place.")


def test_to_typed_continues_the_same_random_stream(exercise):
    raw = _raw_from_split()
    checks.assert_close(jax.random.normal(exercise.to_typed(raw), (3,)), jax.random.normal(raw, (3,)),
                        what="jax.random.normal(to_typed(raw), (3,))",
                        hint="A converted key must hold the same bits as the raw one. Seeding a "
                             "new key from part of the data (jax.random.key(raw[1])) only matches "
                             "for PRNGKey(seed) keys; wrap the data itself instead.")


def test_to_raw_gives_the_uint32_data(exercise):
    checks.assert_shape_dtype(exercise.to_raw(jax.random.key(3)), (2,), np.uint32, what="to_raw(jax.random.key(3))",
                              hint="The raw form of a threefry key is its data: two uint32 words.")
    checks.assert_close(exercise.to_raw(jax.random.key(3)), jax.random.PRNGKey(3), what="to_raw(jax.random.key(3))")
    keys = jax.random.split(jax.random.key(0), 4)
    checks.assert_shape_dtype(exercise.to_raw(keys), (4, 2), np.uint32, what="to_raw(4 typed keys)")
    grid = jax.random.split(jax.random.key(1), 6).reshape(2, 3)
    checks.assert_shape_dtype(exercise.to_raw(grid), (2, 3, 2), np.uint32, what="to_raw(typed keys of shape (2, 3))")
    for typed, what in ((keys, "to_raw(4 typed keys)"), (grid, "to_raw(typed keys of shape (2, 3))")):
        checks.assert_close(_draws(exercise.to_raw(typed)), _draws(typed), what=f"draws from each key of {what}",
                            hint="Every key in the batch gives its own data, at its place: unwrap the "
                                 "whole array of keys at once.")


def test_round_trip_keeps_the_stream(exercise):
    key = jax.random.split(jax.random.key(1))[0]
    back = exercise.to_typed(exercise.to_raw(key))
    if not _is_typed(back):
        checks.fail("to_typed(to_raw(key)) is not a typed key. to_raw should give the key's uint32 "
                    "data and to_typed should wrap such data back into a typed key.",
                    "untyped-key" if _looks_raw(back) else "wrong-shape")
    checks.assert_close(jax.random.uniform(back, (3,)), jax.random.uniform(key, (3,)),
                        what="jax.random.uniform(to_typed(to_raw(key)), (3,))")


def test_reuse_checker_sees_converted_keys(exercise):
    from jax.errors import KeyReuseError

    key = exercise.to_typed(_raw_from_split())
    with jax.debug_key_reuse(True):
        jax.random.normal(key)
        try:
            jax.random.normal(key)
        except KeyReuseError:
            return
    checks.fail("drawing twice with the same to_typed(raw) key raised no KeyReuseError: the "
                "checker only follows arrays of key dtype, and a raw uint32 array looks like any "
                "other numbers. to_typed must return a typed key.", "untyped-key")
