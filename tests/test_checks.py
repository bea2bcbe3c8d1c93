"""The check helpers: each passes on the right thing and fails with a lesson."""

from __future__ import annotations


import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax import lax

from grader import checks
from grader.checks import KataFailure


def test_assert_close_names_the_call_and_the_leaf():
    checks.assert_close({"a": jnp.ones(2)}, {"a": np.ones(2)}, what="f(x)")
    with pytest.raises(KataFailure, match=r"f\(x\): \['a'\] is \[1. 1.\]; expected \[2. 2.\]. try harder"):
        checks.assert_close({"a": jnp.ones(2)}, {"a": 2 * np.ones(2)}, what="f(x)", hint="try harder")
    with pytest.raises(KataFailure, match=r"f\(x\) has shape \(3,\); expected shape \(2,\)"):
        checks.assert_close(jnp.ones(3), np.ones(2), what="f(x)")
    with pytest.raises(KataFailure, match="structure"):
        checks.assert_close((1.0, 2.0), [1.0, 2.0, 3.0], what="f(x)")


def test_assert_shape_dtype():
    checks.assert_shape_dtype(jnp.zeros((2, 3)), (2, 3), jnp.float32, what="f()")
    with pytest.raises(KataFailure, match=r"returned int32\[2, 3\]; expected float32\[2, 3\]"):
        checks.assert_shape_dtype(jnp.zeros((2, 3), jnp.int32), (2, 3), jnp.float32, what="f()")


def test_count_compiles_counts_retraces_by_name():
    def scale(x, neg):
        return -x if neg else x

    jitted = jax.jit(scale, static_argnums=1)
    x = jnp.ones(3)
    with checks.count_compiles("scale") as log:
        for neg in (True, False, True, False):
            jitted(x, neg)
    assert log.count == 2 and log.names == ["jit(scale)", "jit(scale)"]
    checks.assert_compiles(log, what="scale()", calls="4 calls", expected=2)
    with pytest.raises(KataFailure, match=r"scale\(\) compiled 2 times for 4 calls; expected at most 1. mark"):
        checks.assert_compiles(log, what="scale()", calls="4 calls", at_most=1, why="mark it static")


def test_count_compiles_sees_a_jit_recreated_per_call():
    x = jnp.ones(3)
    with checks.count_compiles() as log:
        for _ in range(3):
            jax.jit(lambda v: v * 2)(x)
    with pytest.raises(KataFailure, match="compiled 3 times for 3 calls; expected exactly 1"):
        checks.assert_compiles(log, what="double()", calls="3 calls", expected=1)


def test_assert_jitted_tells_compiled_from_eager():
    x = jnp.ones(3)
    checks.assert_jitted(jax.jit(jnp.sin), x, what="f")
    with pytest.raises(KataFailure, match="runs op by op"):
        checks.assert_jitted(lambda v: jnp.sin(v) + 1, x, what="f")


def test_not_unrolled_compares_jaxpr_sizes():
    def python_loop(xs):
        total = 0.0
        for v in xs:
            total = total + v
        return total

    def fori(xs):
        return lax.fori_loop(0, xs.shape[0], lambda i, t: t + xs[i], 0.0)

    sizes = {n: checks.jaxpr_size(fori, jnp.ones(n)) for n in (4, 32)}
    checks.assert_not_unrolled(sizes, what="fori")
    assert "scan" in checks.jaxpr_primitives(fori, jnp.ones(4)) or "while" in checks.jaxpr_primitives(fori, jnp.ones(4))
    sizes = {n: checks.jaxpr_size(python_loop, jnp.ones(n)) for n in (4, 32)}
    with pytest.raises(KataFailure, match="grows with the number of steps"):
        checks.assert_not_unrolled(sizes, what="python_loop")


def test_assert_not_mutated_catches_in_place_changes():
    def pure(d):
        return {**d, "x": d["x"] + 1}

    def impure(d):
        d["x"] += 1
        return d

    assert checks.assert_not_mutated(pure, {"x": np.zeros(2)}, what="pure(d)")["x"].tolist() == [1, 1]
    with pytest.raises(KataFailure, match=r"impure\(d\) changed its input in place \(argument 0\)"):
        checks.assert_not_mutated(impure, {"x": np.zeros(2)}, what="impure(d)")


def test_assert_sees_global_change_explains_stale_constants():
    state = {"k": 1.0}

    @jax.jit
    def stale(x):
        return x * state["k"]

    def set_k(v):
        state["k"] = v

    with pytest.raises(KataFailure, match="baked in the global's old value"):
        checks.assert_sees_global_change(lambda: stale(jnp.float32(1)), set_k, [1.0, 2.0],
                                         lambda v: v, what="stale(1)")


def test_placement_and_sharding_helpers():
    from jax.sharding import NamedSharding, PartitionSpec as P

    device = jax.devices()[3]
    checks.assert_on_devices(jax.device_put(jnp.ones(2), device), {device}, what="x")
    with pytest.raises(KataFailure, match=r"is on device 0; expected device 3"):
        checks.assert_on_devices(jax.device_put(jnp.ones(2), jax.devices()[0]), {device}, what="x")
    mesh = jax.make_mesh((jax.device_count(),), ("data",))
    x = jax.device_put(jnp.ones((16, 2)), NamedSharding(mesh, P("data")))
    checks.assert_sharding(x, what="x", spec=P("data"), shard_shape=(2, 2), n_devices=jax.device_count())
    with pytest.raises(KataFailure, match="expected PartitionSpec"):
        checks.assert_sharding(x, what="x", spec=P(None, "data"))
    with pytest.raises(KataFailure, match="is not replicated"):
        checks.assert_replicated(x, what="x")
    checks.assert_replicated(jax.device_put(jnp.ones(4), NamedSharding(mesh, P())), what="total")


def test_no_key_reuse_names_the_lesson():
    key = jax.random.key(0)
    with checks.no_key_reuse("draw()"):
        a, b = jax.random.split(key)
        jax.random.normal(a), jax.random.normal(b)
    with pytest.raises(KataFailure, match="used the same PRNG key twice"):
        with checks.no_key_reuse("draw()"):
            jax.random.normal(key), jax.random.normal(key)
