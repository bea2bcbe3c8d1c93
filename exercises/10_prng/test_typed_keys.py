"""Checks for prng-6 (typed_keys)."""

import jax
import jax.numpy as jnp
import numpy as np

from grader import checks


def _is_typed(x):
    return isinstance(x, jax.Array) and jnp.issubdtype(x.dtype, jax.dtypes.prng_key)


def _raw_from_split():
    # Raw key data that is not [0, seed]: a split key's bits look random.
    return jax.random.split(jax.random.PRNGKey(0))[1]


def test_to_typed_makes_typed_keys(exercise):
    for raw, shape in ((jax.random.PRNGKey(3), ()), (jax.random.split(jax.random.PRNGKey(0), 4), (4,))):
        out = exercise.to_typed(raw)
        if not _is_typed(out) or out.shape != shape:
            checks.fail(f"to_typed(raw keys of shape {raw.shape}) returned "
                        f"{getattr(out, 'dtype', type(out).__name__)}{list(getattr(out, 'shape', ()))}; "
                        f"expected a typed key array of shape {shape} (dtype key<fry>). "
                        f"jax.random.wrap_key_data(raw) turns uint32 data into typed keys.")


def test_to_typed_continues_the_same_random_stream(exercise):
    raw = _raw_from_split()
    checks.assert_close(jax.random.normal(exercise.to_typed(raw), (3,)), jax.random.normal(raw, (3,)),
                        what="jax.random.normal(to_typed(raw), (3,))",
                        hint="A converted key must hold the same bits as the raw one. Seeding a "
                             "new key from part of the data (jax.random.key(raw[1])) only matches "
                             "for PRNGKey(seed) keys; wrap the data instead: jax.random.wrap_key_data.")


def test_to_raw_gives_the_uint32_data(exercise):
    checks.assert_shape_dtype(exercise.to_raw(jax.random.key(3)), (2,), np.uint32, what="to_raw(jax.random.key(3))",
                              hint="The raw form of a threefry key is two uint32 words: jax.random.key_data.")
    checks.assert_close(exercise.to_raw(jax.random.key(3)), jax.random.PRNGKey(3), what="to_raw(jax.random.key(3))")
    keys = jax.random.split(jax.random.key(0), 4)
    checks.assert_shape_dtype(exercise.to_raw(keys), (4, 2), np.uint32, what="to_raw(4 typed keys)")


def test_round_trip_keeps_the_stream(exercise):
    key = jax.random.split(jax.random.key(1))[0]
    back = exercise.to_typed(exercise.to_raw(key))
    if not _is_typed(back):
        checks.fail("to_typed(to_raw(key)) is not a typed key. to_raw should give uint32 data "
                    "(jax.random.key_data) and to_typed should wrap it (jax.random.wrap_key_data).")
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
                "other numbers. Return a typed key (jax.random.wrap_key_data).")
