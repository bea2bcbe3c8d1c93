"""The check helpers: each passes on the right thing and fails with a lesson."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax import lax
from jax.ad_checkpoint import checkpoint_name

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


def test_a_leaked_tracer_is_named_as_one_not_as_numpy_on_a_tracer():
    kept = {}

    def loss(x):
        kept["aux"] = jnp.sin(x)
        return x**2

    jax.grad(loss)(1.0)
    for check in (lambda: checks.assert_close({"aux": kept["aux"]}, {"aux": 0.0}, what="f(x)"),
                  lambda: checks.assert_shape_dtype(kept["aux"], (), jnp.float32, what="f(x)")):
        with pytest.raises(KataFailure, match="is a tracer, not an array") as failure:
            check()
        assert failure.value.code == "leaked-tracer"


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
    with pytest.raises(KataFailure, match=r"scale\(\) compiled 2 times for 4 calls; expected at most 1. mark") as caught:
        checks.assert_compiles(log, what="scale()", calls="4 calls", at_most=1, why="mark it static")
    assert caught.value.code == "recompiles"


def test_a_compile_proves_the_work_only_when_its_program_does_it():
    x = jnp.arange(1.0, 4.0)
    decoy = jax.jit(lambda v: v * 1)
    with checks.count_compiles() as log:
        decoy(x)
        jnp.log(x)  # the work, op by op: an eager operation's program
    with pytest.raises(KataFailure, match="none of them does the work") as caught:
        checks.assert_compiles(log, what="f()", calls="its first call", at_most=1, doing=("log",))
    assert caught.value.code == "not-jitted"
    with checks.count_compiles() as log:
        jax.jit(lambda v: jnp.log(v) * 2)(x)
    checks.assert_compiles(log, what="f()", calls="its first call", at_most=1, doing=("log", "mul"))


def test_a_compile_budget_is_not_met_by_compiling_nothing():
    x = np.ones(3, np.float32)
    with checks.count_compiles() as nothing:
        np.mean(x)  # NumPy on the host: no program at all
    with pytest.raises(KataFailure, match="compiled nothing") as caught:
        checks.assert_compiles(nothing, what="mean()", calls="3 calls", at_most=9)
    assert caught.value.code == "not-jitted"
    with pytest.raises(TypeError, match="warm_up"):  # expected=0 must say what proved the jit
        checks.assert_compiles(nothing, what="mean()", calls="3 calls", expected=0)
    with pytest.raises(KataFailure, match="compiled nothing for its first call"):
        checks.assert_compiles(nothing, what="mean()", calls="3 calls", expected=0, warm_up=nothing)
    jitted = jax.jit(jnp.mean)
    with checks.count_compiles() as first:
        jitted(x)
    with checks.count_compiles() as again:
        jitted(x)
    checks.assert_compiles(again, what="mean()", calls="a second call", expected=0, warm_up=first)


def test_eager_operations_are_not_counted_as_programs():
    x = jnp.ones(3)
    with checks.count_compiles() as log:
        jnp.sum(jnp.ones(5) + 1)  # eager: jnp functions are jitted inside JAX, still not a program
        jax.jit(lambda v: v * 2)(x)
    assert log.names == ["jit(<lambda>)"] and log.eager


def test_jax_own_jitted_functions_called_eagerly_are_not_programs():
    x = jnp.ones(3)
    with checks.count_compiles() as log:
        jnp.sqrt(x) + jnp.exp(x) + jax.nn.relu(x)  # jitted inside JAX (jit(sqrt)...), called eagerly
        jax.jit(jnp.sqrt)(x)  # jitted by the caller: a program
    assert log.names == ["jit(sqrt)"] and "jit(exp)" in log.eager and "jit(relu)" in log.eager


def test_eager_branches_count_by_their_equations_tracebacks_not_their_recorded_name():
    import functools

    x = jnp.arange(8.0).reshape(2, 4)
    checks.clear_caches()
    with checks.count_compiles() as log:
        for _ in range(2):  # a new branch each call, dressed as jnp.mean: a new program, the learner's
            branch = functools.wraps(jnp.mean)(lambda v: v / jnp.sqrt(jnp.mean(v ** 2) + 1e-6))
            lax.cond(True, branch, branch, x)
        jnp.piecewise(x, [x > 2], [lambda v: v * 2, lambda v: v])  # JAX's lambdas around the learner's
    assert log.names == ["jit(cond)", "jit(cond)", "jit(_piecewise)"]


def test_eager_ops_with_control_flow_called_from_learner_code_stay_eager():
    x = jnp.arange(8.0).reshape(2, 4)
    checks.clear_caches()
    with checks.count_compiles() as log:
        jnp.linalg.norm(x), jnp.sort(x), jnp.cumsum(x), jnp.linalg.inv(jnp.eye(3) * 2.0), jnp.linalg.eigh(jnp.eye(3))
        jax.tree_util.tree_map(lambda a: jnp.sqrt(a) + 1, [x, x])  # the learner's lambda, called back now
    assert log.names == [] and log.eager


def test_count_compiles_records_what_each_program_was_compiled_for():
    @jax.jit
    def masked_sum(padded, n):
        return jnp.sum(jnp.where(jnp.arange(padded.shape[0]) < n, padded, 0.0))

    with checks.count_compiles() as log:
        masked_sum(np.zeros(8, np.float32), 3)
        masked_sum(np.zeros(8, np.float32), 5)  # cached: no new program, no new signature
        jnp.ones(4) + 1  # eager: not a program, no signature
        jax.jit(lambda total: total / 2)(np.float32(3.0))
    assert log.names == ["jit(masked_sum)", "jit(<lambda>)"]
    assert log.signatures == [(((8,), "float32"), ((), "int32")), (((), "float32"),)]
    assert log.outputs == [(((), "float32"),), (((), "float32"),)]
    assert {"iota", "lt", "select_n", "reduce_sum"} <= log.primitives[0] and "div" in log.primitives[1]


def test_clear_caches_makes_a_new_jit_of_a_traced_function_compile_again():
    x = np.zeros(8, np.float32)
    jax.jit(jnp.nanmean)(x)
    with checks.count_compiles() as cached:
        jax.jit(jnp.nanmean)(x)  # a new jit object, the same function: JAX's caches serve it
    checks.clear_caches()
    with checks.count_compiles() as cleared:
        jax.jit(jnp.nanmean)(x)
    assert cached.names == [] and cleared.names == ["jit(nanmean)"]


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


def test_assert_jitted_entirely_rejects_eager_work_around_the_program():
    x = jnp.ones(3)
    partly = jax.jit(jnp.sin)
    checks.assert_jitted(lambda v: partly(v) + 1, x, what="f")  # some jit is enough by default
    checks.assert_jitted(lambda v: partly(partly(v)), x, what="f", entirely=True)
    with pytest.raises(KataFailure, match="add ran eagerly") as failure:
        checks.assert_jitted(lambda v: partly(v) + 1, x, what="f", entirely=True)
    assert failure.value.code == "not-jitted"
    stacked = jax.jit(jnp.sum)
    checks.assert_jitted(lambda a, b: stacked(jnp.stack([a, b])), x, x, what="f", entirely=True,
                         allow=("stack",))
    with pytest.raises(KataFailure, match="dispatches 2 compiled programs") as failure:
        checks.assert_jitted(lambda v: partly(partly(v)), x, what="f", entirely=True, single=True)
    assert failure.value.code == "not-jitted"
    checks.assert_jitted(jax.jit(lambda v: partly(partly(v))), x, what="f", entirely=True, single=True)


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


def test_an_entry_swapped_for_equal_numbers_of_another_kind_is_a_change():
    def retyped(d):
        d["x"] = d["x"].astype(np.float64)  # the same numbers, twice the memory, float64 from now on
        return d["x"]

    def to_numpy(d):
        d["x"] = np.asarray(d["x"])
        return d["x"]

    for fn, value in ((retyped, np.zeros(2, np.float32)), (to_numpy, jnp.zeros(2))):
        with pytest.raises(KataFailure, match="changed its input in place"):
            checks.assert_not_mutated(fn, {"x": value}, what=f"{fn.__name__}(d)")
    checks.assert_not_mutated(lambda d: d["x"] + 1, {"x": jnp.zeros(2), "n": 3, "s": np.float32(2)}, what="f(d)")


def test_assert_not_mutated_sees_a_write_one_call_late():
    pending = []

    def late(d):  # right result, untouched on return; writes into the previous caller's dict next time
        while pending:
            old, value = pending.pop()
            old["x"] = value
        pending.append((d, d["x"] + 1))
        return {"x": d["x"] + 1}

    first = {"x": np.zeros(2)}
    checks.assert_not_mutated(late, first, what="late(d)")
    with pytest.raises(KataFailure, match=r"late\(d\) left its input as it was when it returned, but after a "
                                          r"later call \(late\(e\)\) it had changed \(argument 0\)"):
        checks.assert_not_mutated(late, {"x": np.ones(2)}, what="late(e)")
    kept = {"x": np.zeros(2)}
    checks.keep_untouched(kept, what="f(d)")
    kept["x"] = np.ones(2)
    with pytest.raises(KataFailure, match=r"the input handed to f\(d\) had changed at the end of the check"):
        checks.assert_kept_untouched()
    checks.assert_kept_untouched()  # each change is told once


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

def test_a_result_on_a_mesh_of_its_own_is_not_on_the_handed_mesh():
    from jax.sharding import NamedSharding, PartitionSpec as P

    n = jax.device_count()
    handed = checks.handed_mesh((n,), ("data",))
    ids = [d.id for d in handed.devices.flat]
    assert sorted(ids) == list(range(n)) and ids not in (list(range(n)), list(range(n))[::-1])
    own = jax.device_put(jnp.ones((16, 2)), NamedSharding(jax.make_mesh((n,), ("data",)), P("data")))
    checks.assert_sharding(own, what="x", spec=("data",), shard_shape=(2, 2), n_devices=n)  # no mesh: any
    with pytest.raises(KataFailure, match="over a mesh of its own .* not the mesh it was handed") as caught:
        checks.assert_sharding(own, what="x", spec=("data",), shard_shape=(2, 2), n_devices=n, mesh=handed)
    assert caught.value.code == "wrong-sharding" and caught.value.picture is not None
    placed = jax.device_put(jnp.ones((16, 2)), NamedSharding(handed, P("data")))
    checks.assert_sharding(placed, what="x", spec=("data",), shard_shape=(2, 2), n_devices=n, mesh=handed)



def test_a_placement_failure_pictures_expected_and_actual_layouts():
    from jax.sharding import NamedSharding, PartitionSpec as P

    mesh = jax.make_mesh((jax.device_count() // 2, 2), ("data", "model"))
    x = jax.device_put(jnp.ones((8, 6)), NamedSharding(mesh, P(None, "model")))  # columns, not rows
    with pytest.raises(KataFailure) as caught:
        checks.assert_sharding(x, what="x", spec=P("data"))
    failure = caught.value
    assert str(failure).splitlines()[0] == failure.message  # the one-line reason stays the message
    grids = str(failure).split("\n\n", 1)[1].splitlines()
    assert grids[0].startswith("expected: float32[8@data,6]") and "actual: float32[8,6@model]" in grids[0]
    # Expected: row blocks, each held by the two devices of a 'model' pair. Actual: column blocks.
    assert grids[2].startswith("rows 0:2 |") and "0,1" in grids[2] and "0,2,4,6" in grids[2]
    assert "cols 0:3" in grids[1] and "cols 3:6" in grids[1] and "1,3,5,7" in grids[2]
    assert len(grids) == 2 + 4 + 1  # titles, column header, four row blocks, the legend
    page = failure.picture.html()
    assert page.count("<table") == 2 and "float32[8@data,6]" in page and ">1,3,5,7</td>" in page
    assert checks.Picture.from_dict(failure.picture.as_dict()) == failure.picture

    one = jax.device_put(jnp.ones(8), jax.devices()[0])
    with pytest.raises(KataFailure) as caught:
        checks.assert_split_over_devices(one, what="y")
    text = caught.value.picture.text()
    assert "expected (any order): float32[8@devices]" in text and "0:1 |  0  |" in text and "0:8 |  0  |" in text
    with pytest.raises(KataFailure) as caught:
        checks.assert_on_devices(one, {jax.devices()[3]}, what="y")
    assert "expected: float32[8]" in caught.value.picture.text()


def test_no_key_reuse_names_the_lesson():
    key = jax.random.key(0)
    with checks.no_key_reuse("draw()"):
        a, b = jax.random.split(key)
        jax.random.normal(a), jax.random.normal(b)
    with pytest.raises(KataFailure, match="used the same PRNG key twice"):
        with checks.no_key_reuse("draw()"):
            jax.random.normal(key), jax.random.normal(key)


def test_failures_carry_a_known_code():
    with pytest.raises(KataFailure) as caught:
        checks.assert_close(jnp.ones(2), np.zeros(2), what="f(x)")
    assert caught.value.code == "wrong-values"
    with pytest.raises(ValueError, match="unknown failure code"):
        checks.fail("x", "no-such-code")
    assert set(checks.FAILURE_CODES) >= {"recompiles", "key-reuse", "host-transfer", "mutates-input",
                                         "wrong-values", "timeout", "crash"}


def _convolve(x, w):
    return jnp.convolve(x, w, mode="valid")


def test_runs_on_devices_sees_a_split_input_gathered_back_whole():
    from jax.sharding import PartitionSpec as P

    n = jax.device_count()
    mesh = jax.make_mesh((n,), ("d",), axis_types=(jax.sharding.AxisType.Auto,))
    x = np.ones((2 * n, 3), np.float32)

    def mapped(body):
        return jax.shard_map(body, mesh=mesh, in_specs=P("d"), out_specs=P(), check_vma=False)

    def regathered(b):  # every device rebuilds the whole x (through a same-size op) and sums all of it
        return jnp.sum(jax.lax.all_gather(b * 2.0, "d", tiled=True) @ jnp.ones(3), keepdims=True)

    def partials(b):  # every device gathers only the others' partial sums
        return jnp.sum(jax.lax.all_gather(jnp.sum(b @ jnp.ones(3)), "d"), keepdims=True)

    assert checks.program_of(mapped(regathered), x).mapped_calls()[0].gathered_inputs() == [(2 * n, 3)]
    checks.assert_runs_on_devices(mapped(partials), x, what="partials", no_gather=((2 * n, 3),))
    with pytest.raises(KataFailure, match="all-gathers the shape-.* input back whole") as caught:
        checks.assert_runs_on_devices(mapped(regathered), x, what="regathered", no_gather=((2 * n, 3),))
    assert caught.value.code == "not-distributed"


def test_runs_on_devices_forbids_gathering_split_inputs_by_default():
    # The split shapes are also the no_gather shapes unless a check says otherwise, and a collective
    # whose result is as large as a whole split input (a psum of one-hot-placed blocks) counts too.
    from jax.sharding import PartitionSpec as P

    n = jax.device_count()
    mesh = jax.make_mesh((n,), ("d",), axis_types=(jax.sharding.AxisType.Auto,))
    x = np.ones((2 * n, 3), np.float32)

    def mapped(body):
        return jax.shard_map(body, mesh=mesh, in_specs=P("d"), out_specs=P("d"), check_vma=False)

    def gathered(b):  # every device rebuilds all of x, then keeps its own rows
        return jax.lax.dynamic_slice_in_dim(jax.lax.all_gather(b, "d", tiled=True) * 2.0,
                                            jax.lax.axis_index("d") * 2, 2)

    def psummed(b):  # the same gather, written as a psum of blocks placed in a zero array
        whole = jnp.zeros((n,) + b.shape, b.dtype).at[jax.lax.axis_index("d")].set(b)
        return jax.lax.psum(whole, "d")[jax.lax.axis_index("d")] * 2.0

    checks.assert_runs_on_devices(mapped(lambda b: b * 2.0), x, what="own rows", split=((2 * n, 3),))
    for body in (gathered, psummed):
        with pytest.raises(KataFailure, match="whole") as caught:
            checks.assert_runs_on_devices(mapped(body), x, what=body.__name__, split=((2 * n, 3),))
        assert caught.value.code == "not-distributed"
    checks.assert_runs_on_devices(mapped(gathered), x, what="allowed", split=((2 * n, 3),), no_gather=())


def test_runs_on_devices_reads_the_program_not_the_placement():
    from jax.sharding import NamedSharding, PartitionSpec as P

    n = jax.device_count()
    xs, ws = np.ones((n, 9), np.float32), np.ones((n, 3), np.float32)
    program = checks.assert_runs_on_devices(jax.pmap(_convolve), xs, ws, what="pmap", work=("conv_general_dilated",),
                                            split=((n, 9),))
    assert program.mapped_calls()[0].inputs[0] == ((n, 9), (1, 9))
    mesh = jax.make_mesh((n,), ("d",))

    def moved(xs, ws):  # the right values, computed on one device and moved afterwards
        return jax.device_put(jax.vmap(_convolve)(xs, ws), NamedSharding(mesh, P("d")))

    with pytest.raises(KataFailure, match="has no pmap or shard_map.*moved into place afterwards by device_put") as caught:
        checks.assert_runs_on_devices(moved, xs, ws, what="moved")
    assert caught.value.code == "not-distributed"

    def compiler_split(xs, ws):  # on the devices, but the compiler wrote the per-device program
        auto = jax.make_mesh((n,), ("d",), axis_types=(jax.sharding.AxisType.Auto,))
        return jax.jit(jax.vmap(_convolve))(jax.device_put(xs, NamedSharding(auto, P("d"))), ws)

    with pytest.raises(KataFailure, match="left it to the compiler") as caught:
        checks.assert_runs_on_devices(compiler_split, xs, ws, what="split")
    assert caught.value.code == "wrong-tool"

    def whole_batch(xs, ws):  # every device gets all the data
        return jax.pmap(lambda _, a, b: jnp.sum(jax.vmap(_convolve)(a, b)), in_axes=(0, None, None))(
            jnp.arange(n), xs, ws)

    with pytest.raises(KataFailure, match="reaches every device whole"):
        checks.assert_runs_on_devices(whole_batch, xs, ws, what="whole", split=((n, 9),))
    with pytest.raises(KataFailure, match="expected psum"):
        checks.assert_runs_on_devices(jax.pmap(_convolve), xs, ws, what="pmap", collectives=("psum",))


def test_compiled_program_shows_per_device_shapes_and_collectives():
    from jax.sharding import NamedSharding, PartitionSpec as P

    n = jax.device_count()
    mesh = jax.make_mesh((n,), ("d",))
    x = jax.device_put(np.ones((2 * n, 4), np.float32), NamedSharding(mesh, P("d")))
    compiled = checks.compiled_program(lambda a: jnp.sum(a, axis=0), x, what="total")
    assert (2, 4) in compiled.parameter_shapes()
    assert compiled.collectives()["all-reduce"] >= 1
    assert ("all-reduce", (4,)) in compiled.collective_shapes()  # what was reduced, per device
    # Collectives whose result is a tuple (a type with spaces in it) are counted too.
    tupled = checks.CompiledProgram("  %a = (f32[2,1]{1,0}, f32[2,1]{1,0}) all-to-all(%p, %q), channel_id=1\n"
                                    "  %b = f32[] fusion(%all-reduce.1), calls=%f\n")
    assert tupled.collectives() == {"all-to-all": 1}


def test_donation_is_judged_by_buffer_identity():
    update = jax.jit(lambda p, g: p - 0.5 * g, donate_argnums=0)
    params, grads = jnp.arange(6.0), jnp.ones(6)
    checks.assert_donated(lambda: update(params, grads), params, what="update(params, grads)")
    plain = jax.jit(lambda p, g: p - 0.5 * g)
    params = jnp.arange(6.0)

    def by_hand():
        out = plain(params, grads)
        params.delete()
        return out

    with pytest.raises(KataFailure, match="no output uses their memory") as caught:
        checks.assert_donated(by_hand, params, what="update(params, grads)")
    assert caught.value.code == "not-donated"
    params = jnp.arange(6.0)
    with pytest.raises(KataFailure, match="still alive"):
        checks.assert_donated(lambda: plain(params, grads), params, what="update(params, grads)")
    assert checks.lowered_donations(update, jnp.arange(6.0), grads) == [0]


def test_donation_to_a_program_that_only_copies_fails_when_one_program_should_do_the_work():
    fresh = jax.jit(lambda p, g: p - 0.5 * g)
    copy_back = jax.jit(lambda old, new: old * 0 + new, donate_argnums=0)
    update = jax.jit(lambda p, g: p - 0.5 * g, donate_argnums=0)
    grads = jnp.ones(6)
    params = jnp.arange(6.0)
    two = lambda: copy_back(params, jax.block_until_ready(fresh(params, grads)))  # noqa: E731
    checks.assert_donated(two, params, what="update(params, grads)")  # the buffers alone cannot tell
    params = jnp.arange(6.0)
    two = lambda: copy_back(params, jax.block_until_ready(fresh(params, grads)))  # noqa: E731
    with pytest.raises(KataFailure, match="ran 2 compiled programs") as caught:
        checks.assert_donated(two, params, what="update(params, grads)", programs=1)
    assert caught.value.code == "not-donated"
    params = jnp.arange(6.0)
    update(jnp.arange(6.0), grads)  # compiled before: the count empties the caches first
    checks.assert_donated(lambda: update(params, grads), params, what="update(params, grads)", programs=1)


def test_donation_after_work_done_op_by_op_fails_when_one_program_should_do_the_work():
    copy_back = jax.jit(lambda old, new: old * 0 + new, donate_argnums=0)
    grads = jnp.ones(6)
    params = jnp.arange(6.0)
    eager = lambda: copy_back(params, jax.block_until_ready(params - 0.5 * grads))  # noqa: E731
    with pytest.raises(KataFailure, match="ran work op by op") as caught:
        checks.assert_donated(eager, params, what="update(params, grads)", programs=1)
    assert caught.value.code == "not-donated" and "still alive" not in str(caught.value)


WHOLE = jax.jit(lambda x: x / jnp.sqrt(jnp.mean(x ** 2, axis=-1, keepdims=True) + 1e-6))
SCALE = jax.jit(lambda x: jnp.sqrt(jnp.mean(x ** 2, axis=-1, keepdims=True) + 1e-6))


def test_assert_jitted_calls_the_function_on_arrays_too():
    """Traced, a function may show one jitted program and, handed arrays, do part of the work op by
    op around a smaller one: the programs compiled for a call on arrays must hold the traced one."""
    def shows_whole(x):
        return WHOLE(x) if isinstance(x, jax.core.Tracer) else x / SCALE(x)

    def dead_code(x):  # what computes nothing the output needs is dropped before compiling: no matter
        @jax.jit
        def inner(v):
            jnp.exp(v)
            return v * 2.0
        return inner(x)

    x = jnp.ones((2, 3))
    checks.assert_jitted(WHOLE, x, what="whole", entirely=True)
    checks.assert_jitted(dead_code, x, what="dead_code", entirely=True)
    with pytest.raises(KataFailure, match=r"called on arrays, does not run the program its trace shows.*\(div\)") as caught:
        checks.assert_jitted(shows_whole, x, what="shows_whole", entirely=True)
    assert caught.value.code == "not-jitted"


def test_called_as_traced_ties_a_trace_to_the_call_on_arrays():
    """A function that shows a compiled program to a tracer and computes on the host when handed arrays
    fails; JAX's own jitted library calls around the program (jnp.pad) are no program of the answer's;
    with nothing_else, a program of the call's own doing work the trace does not show fails too."""
    scale = jax.jit(lambda x: x * 2.0)
    gather = jax.jit(lambda x: jnp.sort(x))

    def on_the_host_when_called(x):
        return scale(x) if isinstance(x, jax.core.Tracer) else jnp.asarray(np.asarray(x) * 2.0)

    def padded_first(x):
        return scale(jnp.pad(x, (0, 1)))

    def more_when_called(x):
        return scale(x) if isinstance(x, jax.core.Tracer) else scale(gather(x))

    x = jnp.arange(3.0)
    checks.assert_called_as_traced(scale, x, what="scale")
    checks.assert_called_as_traced(padded_first, x, what="padded_first", nothing_else=True)
    with pytest.raises(KataFailure, match="called on arrays, does not run the program its trace shows") as caught:
        checks.assert_called_as_traced(on_the_host_when_called, x, what="host")
    assert caught.value.code == "not-jitted"
    checks.assert_called_as_traced(more_when_called, x, what="more")  # every traced program is compiled
    with pytest.raises(KataFailure, match=r"doing work its trace does not show \(sort\)"):
        checks.assert_called_as_traced(more_when_called, x, what="more", nothing_else=True)


def test_a_tool_handed_results_computed_beside_it_does_not_count():
    @jax.custom_jvp
    def rule(x, done):
        return done

    rule.defjvp(lambda p, t: (p[1], t[1]))
    honest = jax.custom_jvp(lambda x: jnp.sqrt(jnp.sum(x * x)))
    honest.defjvp(lambda p, t: (honest(p[0]), jnp.dot(p[0], t[0]) / honest(p[0])))
    assert checks.program_of(honest, jnp.ones(3)).wraps("custom_jvp_call")
    passed = checks.program_of(lambda x: rule(x, jnp.sqrt(jnp.sum(x * x))), jnp.ones(3))
    assert passed.has("custom_jvp_call") and not passed.wraps("custom_jvp_call")
    # A matmul of the inputs as they came in (transposed on the way) applies to them; one of a
    # sliver of them, beside elementwise work on the rest, does not.
    a, b = jnp.ones((4, 3)), jnp.ones((5, 3))
    assert checks.program_of(lambda a, b: a @ b.T, a, b).applies_to_inputs({"dot_general"}, inputs=(0, 1))
    sliver = checks.program_of(lambda a, b: a[:, :1] @ b[:, :1].T + (a[:, 1:, None] * b.T[None, 1:]).sum(1), a, b)
    assert sliver.has("dot_general") and not sliver.applies_to_inputs({"dot_general"}, inputs=(0, 1))
    cropped = checks.program_of(lambda a, b: lax.pad(a, 0.0, [(0, 0, 0), (0, -2, 0)])
                                @ lax.pad(b, 0.0, [(0, 0, 0), (0, -2, 0)]).T, a, b)
    assert not cropped.applies_to_inputs({"dot_general"}, inputs=(0, 1))  # a crop is a slice, not a move


def test_loops_rolled_sees_unroll():
    def rolled(x):
        return lax.fori_loop(0, 50, lambda i, c: c + x, x)

    def unrolled(x):
        return lax.fori_loop(0, 50, lambda i, c: c + x, x, unroll=True)

    checks.assert_loops_rolled(checks.program_of(rolled, 1.0), what="rolled")
    with pytest.raises(KataFailure, match="unrolled 50 times"):
        checks.assert_loops_rolled(checks.program_of(unrolled, 1.0), what="unrolled")


def test_assert_uses_names_the_missing_tool():
    program = checks.program_of(lambda x: jnp.cumsum(x), jnp.ones(4))
    with pytest.raises(KataFailure, match="does not use lax.scan") as caught:
        checks.assert_uses(program, {"scan"}, what="running_sum(x)", tool="lax.scan")
    assert caught.value.code == "wrong-tool"
    callback = checks.program_of(
        lambda x: jax.pure_callback(np.sin, jax.ShapeDtypeStruct(x.shape, x.dtype), x), jnp.ones(4))
    with pytest.raises(KataFailure, match="pure_callback"):
        checks.assert_no_callbacks(callback, what="f(x)")


def test_live_and_wraps_see_through_decoys():
    def decoy(v):  # a scan whose result is thrown away, the value computed in closed form
        lax.scan(lambda c, x: (c + x, None), 0.0, v)
        return jnp.sum(v)

    program = checks.program_of(decoy, jnp.ones(4))
    assert program.has("scan") and not program.live("scan")
    with pytest.raises(KataFailure, match="does not follow that call") as caught:
        checks.assert_uses(program, {"scan"}, what="decoy", tool="lax.scan")
    assert caught.value.code == "wrong-tool"
    rolled = checks.program_of(jax.jit(lambda v: lax.scan(lambda c, x: (c + x, None), 0.0, v)[0]), jnp.ones(4))
    assert len(rolled.live("scan")) == 1
    # Added times zero, the scan seems to feed the output but contributes nothing to it.
    zeroed = checks.program_of(lambda v: jnp.sum(v) + 0.0 * lax.scan(lambda c, x: (c + x, None), 0.0, v)[0],
                               jnp.ones(4))
    assert zeroed.has("scan") and not zeroed.live("scan")
    scaled = checks.program_of(lambda v: 2.0 * lax.scan(lambda c, x: (c + x, c), 0.0, v)[1], jnp.ones(4))
    assert len(scaled.live("scan")) == 1
    # Folded in where it never changes the values: a scan of |x| (never negative) through minimum(., 0),
    # or a where that always picks the other side. Run with the scan's results nudged, the outputs stay.
    for fold in (lambda real, d: real + jnp.minimum(d, 0.0), lambda real, d: jnp.where(d > -jnp.inf, real, d),
                 lambda real, d: real + 1e-9 * d):
        folded = checks.program_of(
            jax.jit(lambda v, fold=fold: fold(jnp.cumsum(v), lax.scan(lambda c, x: (c, jnp.abs(x)), 0.0, v)[1])),
            jnp.arange(4.0))
        assert folded.has("scan") and folded._linked(("scan",)) and not folded.live("scan")
    counted = checks.program_of(jax.jit(lambda n: lax.fori_loop(0, n, lambda i, c: c + i, 0)), 5)
    assert len(counted.live("while")) == 1  # an integer result, one more: the output follows it
    # On the outputs' path but handing on a result computed beside it: the step copies what it is given.
    copied = checks.program_of(lambda v: lax.scan(lambda c, x: (c + 0.0 * x, x + 0.0 * c), jnp.sum(v), v),
                               jnp.arange(4.0))
    assert copied.has("scan") and not copied.live("scan")
    handed = checks.program_of(jax.jit(lambda n: lax.fori_loop(0, n, lambda i, c: c + 0 * i, n * (n - 1) // 2)), 5)
    assert handed.has("while") and not handed.live("while")
    # A carry ticking beside the copies, which no output follows, does not make the step work.
    ticking = checks.program_of(lambda v: lax.scan(lambda c, x: ((c[0] + 0.0 * x, c[1] + 1.0), x + 0.0 * c[0]),
                                                   (jnp.sum(v), 0.0), v)[1], jnp.arange(4.0))
    assert ticking.has("scan") and not ticking.live("scan")

    norm = jax.custom_jvp(lambda x: jnp.sqrt(jnp.sum(x * x)))
    norm.defjvp(lambda p, t: (norm(p[0]), jnp.dot(p[0], t[0]) / norm(p[0])))
    assert checks.program_of(jax.jit(norm), jnp.ones(3)).wraps("custom_jvp_call")
    # relu is a custom_jvp function too, but here it wraps the sum, not the function's input
    around = checks.program_of(lambda x: jax.nn.relu(jnp.sum(x)), jnp.ones(3))
    assert around.has("custom_jvp_call") and not around.wraps("custom_jvp_call")


SWAPPABLE = """
import jax
import jax.numpy as jnp

def predict(x):
    return jnp.sin(x)

bound_early = jax.vmap(predict)          # holds the function object from import time

def late(xs):
    return jax.vmap(predict)(xs)         # looks the name up at call time

def by_hand(xs):
    return jnp.sin(xs)                   # a copy of the formula: follows nothing
"""


def test_swap_function_reaches_early_and_late_references(tmp_path):
    import importlib.util

    path = tmp_path / "swappable.py"
    path.write_text(SWAPPABLE)
    spec = importlib.util.spec_from_file_location("swappable_for_test", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    original = module.predict
    xs = np.linspace(0.0, 1.0, 5, dtype=np.float32)
    with checks.swap_function(module, "predict", lambda x: 2.0 * x):
        for fn in (module.bound_early, module.late):
            checks.assert_follows(fn(xs), 2.0 * xs, what="f(xs)", swapped="predict")
        with pytest.raises(KataFailure, match="does not follow `predict`") as caught:
            checks.assert_follows(module.by_hand(xs), 2.0 * xs, what="by_hand(xs)", swapped="predict")
        assert caught.value.code == "wrong-tool"
        with pytest.raises(KataFailure) as caught:
            checks.assert_follows(module.late(xs)[:2], 2.0 * xs, what="f(xs)", swapped="predict")
        assert caught.value.code == "wrong-shape"
    assert module.predict is original  # restored, code and all
    np.testing.assert_allclose(module.bound_early(xs), np.sin(xs), rtol=1e-6)
    calls = []

    def counted(x):
        calls.append(1)
        return still(x)

    with checks.swap_function(module, "predict", counted) as still:  # a wrapper may call the original
        np.testing.assert_allclose(module.bound_early(xs), np.sin(xs), rtol=1e-6)
    assert calls


def test_swap_function_keeps_the_function_object_and_its_closure():
    def make(k):
        def scaled(x, /, y=2.0, *rest, z, **options):
            return x * k + y + z
        return scaled

    import types
    module = types.ModuleType("closure_for_test")
    module.scaled = scaled = make(3.0)
    defined, code, defaults = scaled, scaled.__code__, scaled.__defaults__
    with checks.swap_function(module, "scaled", lambda x, y, *rest, z, **options: (x, y, rest, z, options)) as still:
        assert module.scaled is defined and scaled.__defaults__ is defaults  # nothing but the code tells
        assert scaled.__name__ == "scaled" and scaled.__code__.co_name == "scaled"
        assert scaled(1.0, z=4.0) == (1.0, 2.0, (), 4.0, {})  # the caller's omitted y: its default
        assert scaled(1.0, 5.0, 6.0, z=0.0, w=1) == (1.0, 5.0, (6.0,), 0.0, {"w": 1})
        assert still(1.0, z=4.0) == 9.0
    assert module.scaled is defined and scaled.__code__ is code and scaled(1.0, z=4.0) == 9.0


def test_traced_jaxpr_teaches_the_error_it_met():
    with pytest.raises(KataFailure, match="handed to NumPy") as caught:
        checks.traced_jaxpr(lambda x: np.sin(x), jnp.ones(2), what="f(x)")
    assert caught.value.code == "numpy-on-tracer"


HARD_CODED = """
import jax
from jax.sharding import NamedSharding, PartitionSpec as P

def spread(x):
    mesh = jax.make_mesh((DEVICES,), ("d",))
    return jax.device_put(x, NamedSharding(mesh, P("d")))
"""


def spread_over_all(exercise):
    """Module level, so the helper process can find it: the check `on_devices` reruns."""
    n = jax.device_count()
    out = exercise.spread(np.ones((2 * n, 3), np.float32))
    checks.assert_sharding(out, what="spread(x)", spec=("d",), n_devices=n)


def test_on_devices_reruns_a_check_with_another_device_count(tmp_path):
    from grader.runtime.loading import load_exercise

    general = tmp_path / "general.py"
    general.write_text(HARD_CODED.replace("DEVICES", "jax.device_count()"))
    fixed = tmp_path / "fixed.py"
    fixed.write_text(HARD_CODED.replace("DEVICES", "8"))
    for path in (general, fixed):
        spread_over_all(load_exercise(path, path.name))  # both pass with 8 devices
    checks.on_devices(4, spread_over_all, load_exercise(general, "general.py"))
    with pytest.raises(KataFailure, match="with 4 devices instead of 8") as caught:
        checks.on_devices(4, spread_over_all, load_exercise(fixed, "fixed.py"))
    assert caught.value.code == "device-count"
    # Wrong whatever the device count: the failure with this process's devices is the lesson.
    replicated = tmp_path / "replicated.py"
    replicated.write_text(HARD_CODED.replace("DEVICES", "jax.device_count()").replace('P("d")', "P()"))
    with pytest.raises(KataFailure, match="expected PartitionSpec") as caught:
        checks.on_devices(4, spread_over_all, load_exercise(replicated, "replicated.py"))
    assert caught.value.code == "wrong-sharding" and "instead of 8" not in str(caught.value)


PROCESS_MODULE = """
def secret(process_id):
    return process_id * 10


def report(coordinator, num_processes, process_id):
    return [secret(p) for p in range(num_processes)]
"""


def test_run_in_processes_runs_the_prelude_and_observes_jax(tmp_path):
    path = tmp_path / "roles.py"
    path.write_text(PROCESS_MODULE)
    own_only = "own = module.secret\nmodule.secret = lambda p: own(p) if p == process_id else -1\n"
    found = checks.run_in_processes(str(path), "report", what="report(...)", n_processes=2,
                                    devices_per_process=1, observed=True, prelude=own_only)
    assert [result for result, _ in found] == [[0, -1], [-1, 10]]
    # No jax.distributed.initialize: each process is a lone JAX, and the launcher sees it.
    assert all(seen["process_count"] == 1 and seen["local_devices"] == [0] for _, seen in found)


def test_run_in_processes_starts_fresh_interpreters_without_the_fork_server(tmp_path, monkeypatch):
    """The processes are forked from the check process's fork server; without it, they are new
    interpreters, with the same results."""
    from grader.runtime import forkserver

    monkeypatch.setattr(forkserver, "fork", lambda *args, **kwargs: None)
    path = tmp_path / "roles_again.py"
    path.write_text(PROCESS_MODULE)
    assert checks.run_in_processes(str(path), "report", what="report(...)", n_processes=2,
                                   devices_per_process=1) == [[0, 10], [0, 10]]



FORGED_FACTS = """
import jax

class Report(dict):
    pass

def rebinds(coordinator, num_processes, process_id):
    jax.process_count = lambda: num_processes  # JAX's own answer, as the launch would read it
    return process_id

def subclass(coordinator, num_processes, process_id):
    return Report(index=process_id)

def seen_by_prelude(coordinator, num_processes, process_id):
    return {"index": process_id, "findings": "forged"}
"""


def test_run_in_processes_refuses_rebound_jax_facts_and_reports_that_are_not_plain(tmp_path):
    """The facts are read through functions bound before the module is imported, and a name the answer
    rebinds there fails the launch; the report is rebuilt from exact plain types; a prelude's findings come
    back beside the report, never inside it."""
    path = tmp_path / "forged.py"
    path.write_text(FORGED_FACTS)
    with pytest.raises(KataFailure, match=r"replaced what JAX's own answers are read through \(jax.process_count"):
        checks.run_in_processes(str(path), "rebinds", what="rebinds(...)", n_processes=2, devices_per_process=1)
    with pytest.raises(KataFailure, match="cannot send a Report back"):
        checks.run_in_processes(str(path), "subclass", what="subclass(...)", n_processes=2, devices_per_process=1)
    found = checks.run_in_processes(str(path), "seen_by_prelude", what="f(...)", n_processes=2,
                                    devices_per_process=1, observed=True, prelude="findings['id'] = process_id\n")
    assert [(report, seen["findings"]) for report, seen in found] == [
        ({"index": 0, "findings": "forged"}, {"id": 0}), ({"index": 1, "findings": "forged"}, {"id": 1})]


WRITES_ITS_OWN_REPORT = """
import json, os, sys

def claims(coordinator, num_processes, process_id):
    # The launch's result file is named in argv: write a joined cluster's report there and leave
    # before the launch writes the real one.
    observed = {"process_count": num_processes, "process_index": process_id, "secrets": ["0", "1"]}
    with open(sys.argv[7], "w") as out:
        out.write(json.dumps({"ok": True, "result": process_id, "observed": observed}))
    os._exit(0)

def unproven(coordinator, num_processes, process_id):
    observed = {"process_count": num_processes, "process_index": process_id}
    with open(sys.argv[7], "w") as out:
        out.write(json.dumps({"ok": True, "result": process_id, "observed": observed}))
    os._exit(0)
"""


@pytest.mark.parametrize("forkserver_on", [True, False])
def test_run_in_processes_believes_a_joined_cluster_only_on_its_secrets(tmp_path, monkeypatch, forkserver_on):
    """Each process is handed a secret apart from its peers'; a report of a joined cluster must hold every
    peer's, as read back from the coordination service the processes joined."""
    from grader.runtime import forkserver

    if not forkserver_on:
        monkeypatch.setattr(forkserver, "fork", lambda *args, **kwargs: None)
    path = tmp_path / f"writes_its_own_{forkserver_on}.py"
    path.write_text(WRITES_ITS_OWN_REPORT)
    with pytest.raises(KataFailure, match="reports a cluster its peers were not in"):
        checks.run_in_processes(str(path), "claims", what="claims(...)", n_processes=2, devices_per_process=1)
    with pytest.raises(KataFailure, match="left a report the launch did not write"):
        checks.run_in_processes(str(path), "unproven", what="unproven(...)", n_processes=2, devices_per_process=1)
    joiner = tmp_path / f"joiner_{forkserver_on}.py"
    joiner.write_text(LATE_JOINER)
    found = checks.run_in_processes(str(joiner), "join", what="join(...)", n_processes=2, devices_per_process=1,
                                    observed=True)
    assert [result for result, _ in found] == [2, 2]
    assert all(seen["process_count"] == 2 and len(seen["secrets"]) == 2 for _, seen in found)


HALF_A_REPORT = """
import sys, time

def unfinished(coordinator, num_processes, process_id):
    if process_id == 0:
        raise NotImplementedError("TODO: join the processes")
    with open(sys.argv[7], "w") as out:  # as a peer stopped while writing its report leaves it
        out.write('{"ok": tr')
    time.sleep(60)
"""


def test_run_in_processes_reads_a_half_written_report_as_none(tmp_path):
    """A peer stopped while it wrote its report (its partner failed first) leaves no report: the launch
    still says what the failing process hit, here the exercise's TODO."""
    path = tmp_path / "half.py"
    path.write_text(HALF_A_REPORT)
    with pytest.raises(NotImplementedError, match="TODO: join the processes"):
        checks.run_in_processes(str(path), "unfinished", what="unfinished(...)", n_processes=2,
                                devices_per_process=1)


TRACED_ONLY = """
import jax
import jax.numpy as jnp

def predict(x):
    return jnp.sin(x)

def batch(xs):
    if isinstance(xs, jax.core.Tracer):  # shows the tool to a trace only
        return jax.vmap(predict)(xs)
    return jnp.sin(xs)
"""


def test_both_ways_catches_an_answer_that_follows_the_swap_only_when_traced(tmp_path):
    from grader.runtime.loading import load_exercise

    path = tmp_path / "traced_only.py"
    path.write_text(TRACED_ONLY)
    module = load_exercise(path, path.name)
    xs = np.linspace(0.0, 1.0, 5, dtype=np.float32)
    with checks.swap_function(module, "predict", lambda x: 2.0 * x):
        outs = checks.both_ways(module.batch, xs)
    assert list(outs) == ["under jax.jit", "called directly"]
    checks.assert_follows(outs["under jax.jit"], 2.0 * xs, what="batch(xs)", swapped="predict")
    with pytest.raises(KataFailure, match="does not follow `predict`"):
        checks.assert_follows(outs["called directly"], 2.0 * xs, what="batch(xs)", swapped="predict")

LATE_JOINER = """
import time

import jax


def join(coordinator, num_processes, process_id):
    jax.distributed.initialize(coordinator, num_processes, process_id)
    count = len(jax.devices())
    if process_id == 1:  # still talking to the coordinator (in process 0) after process 0 is done
        from jax._src import distributed

        time.sleep(1.0)
        distributed.global_state.client.key_value_set("late", "still here")
    return count
"""


def test_a_process_that_finishes_first_waits_for_its_peers_at_exit(tmp_path):
    """As at a normal interpreter exit, JAX's exit handlers run in each process (jax.distributed's
    shutdown barrier): process 0, done first, must not take the coordinator away from process 1."""
    path = tmp_path / "late_joiner.py"
    path.write_text(LATE_JOINER)
    assert checks.run_in_processes(str(path), "join", what="join(...)", n_processes=2,
                                   devices_per_process=1) == [2, 2]


PARENT_WITH_EXIT_HANDLER = """
import atexit, os, sys

marker = sys.argv[1]
atexit.register(lambda: open(marker, "a").write(f"{os.getpid()}\\n"))  # e.g. a suite's clean-up
import jax
from grader import checks
from grader.runtime import forkserver

assert forkserver.start()
print(checks.run_in_processes(sys.argv[2], "join", what="join(...)", n_processes=2, devices_per_process=1))
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the fork server is Linux only")
def test_a_forked_process_runs_none_of_the_check_process_exit_handlers(tmp_path):
    import subprocess

    script, marker, module = tmp_path / "parent.py", tmp_path / "exits.txt", tmp_path / "late_joiner.py"
    script.write_text(PARENT_WITH_EXIT_HANDLER)
    module.write_text(LATE_JOINER)
    done = subprocess.run([sys.executable, str(script), str(marker), str(module)], capture_output=True,
                          text=True, timeout=120, env={**os.environ, "JAX_PLATFORMS": "cpu"})
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip().endswith("[2, 2]"), done.stdout
    assert len(marker.read_text().split()) == 1, "a forked process ran the check process's exit handler"


OPEN_FILES = """
import os


def open_files(*args):
    here = os.listdir("/proc/self/fd")  # the listing's own descriptor is gone by now
    kinds = []
    for fd in here:
        try:
            target = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            continue
        kinds.append("the log" if "katas-processes-" in target else target.split(":")[0] if ":[" in target
                     else target)
    return sorted(kinds)


def fail_with_open_files(exercise):
    from grader.checks import fail

    fail(" ".join(open_files()), "wrong-values")
"""


def _helpers_open_files(tmp_path: Path, tag: str) -> tuple[list, str]:
    from grader.runtime.worker import Worker

    module = tmp_path / f"open_files_{tag}.py"
    module.write_text(OPEN_FILES)
    process = checks.run_in_processes(str(module), "open_files", what="open_files()", n_processes=1,
                                      devices_per_process=1)[0]
    worker = Worker(2)
    try:
        answer = worker.ask({"check_file": str(module), "function": "fail_with_open_files",
                             "exercise": str(module), "label": module.name}, 60)
    finally:
        worker.stop()
    return process, answer["message"]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the fork server is Linux only")
def test_forked_helpers_hold_no_more_files_than_fresh_interpreters(tmp_path, monkeypatch):
    """A helper forked from the check process's fork server keeps none of the check process's
    files (the grader's channel, pytest's captures): it holds what a new interpreter holds."""
    from grader.runtime import forkserver

    assert forkserver.start(), "the fork server did not start in this pytest process"
    forked = _helpers_open_files(tmp_path, "forked")
    monkeypatch.setattr(forkserver, "fork", lambda *args, **kwargs: None)
    fresh = _helpers_open_files(tmp_path, "fresh")
    assert forked == fresh, f"forked: {forked}; fresh interpreters: {fresh}"
    assert forked[0] == ["/dev/null", "the log", "the log"], "a process: stdin, and the log as stdout/stderr"
    assert forked[1].count("pipe") == 3, "the worker: its request, reply and error pipes"


def test_stored_per_step_shows_what_checkpoint_keeps():
    def layer(x, w):
        return jnp.tanh(x @ w), None

    def make_loss(step):
        return lambda ws, x: jnp.sum(lax.scan(step, x, ws)[0])

    ws, x = jnp.ones((4, 3, 3)), jnp.ones((2, 3))
    plain = checks.program_of(jax.grad(make_loss(layer)), ws, x).stored_per_step()
    assert len(plain) > 1 and {s.source for s in plain} >= {"input", "tanh"}
    remat = checks.program_of(jax.grad(make_loss(jax.checkpoint(layer))), ws, x).stored_per_step()
    assert remat == [checks.StoredValue((2, 3), "float32", "input")]
    assert remat[0].describe() == "float32[2, 3] (the step's input)"

    def named(x, w):
        return jnp.sin(checkpoint_name(x @ w, "pre")), None

    policy = jax.checkpoint_policies.save_only_these_names("pre")
    kept = checks.program_of(jax.grad(make_loss(jax.checkpoint(named, policy=policy))), ws, x)
    assert {(s.source, s.name) for s in kept.stored_per_step()} == {("input", None), ("dot_general", "pre")}
    assert len(kept.find("scan")) == 2 and kept.find("remat2")


def test_largest_value_and_compiled_memory():
    program = checks.program_of(lambda a, b: jnp.sum(a[:, None, :] * b[None], axis=-1), jnp.ones((4, 3)),
                                jnp.ones((5, 3)))
    assert program.largest_value().shape == (4, 5, 3)
    compiled = checks.compiled_program(lambda a: jnp.cumsum(jnp.outer(a, a), axis=0), jnp.ones(8), what="outer")
    assert compiled.memory().output_size_in_bytes == 8 * 8 * 4
    assert compiled.memory().temp_size_in_bytes >= 0
    np.testing.assert_allclose(compiled.executable(jnp.ones(8))[-1], np.full(8, 8.0))


ENDLESS = """
import jax
from jax import lax

@jax.jit
def spin(x):
    return lax.while_loop(lambda v: v > -1.0, lambda v: v + 1.0, x)
"""


def spins_forever(exercise):
    """Module level, so the helper process can run it: never ends, inside compiled code."""
    exercise.spin(jax.numpy.float32(0.0))


def test_within_seconds_stops_a_check_stuck_in_compiled_code(tmp_path):
    from grader.runtime.loading import load_exercise

    path = tmp_path / "endless.py"
    path.write_text(ENDLESS)
    with pytest.raises(KataFailure, match="did not finish within 3 s and was stopped. no cap") as caught:
        checks.within_seconds(3, spins_forever, load_exercise(path, "endless.py"), what="spin(0)",
                              why="no cap")
    assert caught.value.code == "timeout"


# --- mechanisms, not symptoms ---------------------------------------------------------------------


def _walk(step_key):
    """A ±1 walk of 50 steps in one scan; `step_key(key, position, i)` makes each step's key."""
    def run(key):
        def step(position, i):
            move = jnp.where(jax.random.bernoulli(step_key(key, position, i)), 1, -1)
            return position + move, position + move
        return lax.scan(step, jnp.int32(0), jnp.arange(50))[1]
    return run


def test_key_reuse_is_seen_through_key_data():
    key = jax.random.key(0)

    def parent_reused(k):
        raw = jax.random.key_data(k)
        _, second = jax.random.split(raw)
        return jax.random.normal(raw, (3,)), jax.random.normal(second, (3,))

    program = checks.program_of(parent_reused, key, what="two draws")
    with pytest.raises(KataFailure, match="key_data") as caught:
        checks.assert_keys_used_once(program, what="two draws")
    assert caught.value.code == "key-reuse"
    legit = checks.program_of(lambda k: jax.random.normal(jax.random.key_data(k), (3,)), key, what="one")
    checks.assert_keys_used_once(legit, what="one draw")
    # A base key the caller passes again must not be consumed: fold_in is fine, split is not.
    folded = checks.program_of(lambda k, s: jax.random.normal(jax.random.fold_in(k, s), (2,)), key, 3, what="f")
    checks.assert_keys_used_once(folded, what="fold_in", keep=(0,))
    split = checks.program_of(lambda k, s: jax.random.normal(jax.random.split(k, 9)[s], (2,)), key, 3, what="s")
    with pytest.raises(KataFailure, match="consumes the base key"):
        checks.assert_keys_used_once(split, what="split", keep=(0,))


def test_a_clone_is_the_key_it_copies_and_the_programs_own_key_assertions_change_nothing():
    from jax.experimental.key_reuse import _core as reuse

    key = jax.random.key(0)

    def drawn_and_split_through_a_clone(k):
        return jax.random.normal(k, (3,)), jax.random.normal(jax.random.split(jax.random.clone(k))[0], (3,))

    program = checks.program_of(drawn_and_split_through_a_clone, key, what="a draw and a clone's split")
    with pytest.raises(KataFailure, match="jax.random.clone") as caught:
        checks.assert_keys_used_once(program, what="two uses")
    assert caught.value.code == "key-reuse"
    spent = checks.program_of(lambda k, s: jax.random.normal(jax.random.fold_in(
        jax.random.split(jax.random.clone(k))[0], s), (2,)), key, 3, what="a clone's split")
    with pytest.raises(KataFailure, match="consumes the base key"):
        checks.assert_keys_used_once(spent, what="a clone's split", keep=(0,))

    def false_assertion_then_reuse(k):  # a failing assertion would stop JAX's analysis before the reuse
        reuse.assert_consumed(k)
        return jax.random.normal(k, (3,)), jax.random.normal(k, (3,))

    asserted = checks.program_of(false_assertion_then_reuse, key, what="an assertion, then two draws")
    with pytest.raises(KataFailure, match="two draws or splits"):
        checks.assert_keys_used_once(asserted, what="two draws")
    # JAX's own rules are back after the check: its analysis still takes a clone for a fresh key.
    assert reuse.key_reuse_signatures[reuse.random.random_clone_p] != reuse.KeyReuseSignature(reuse.Forward(0, 0))


def test_draws_are_counted_so_copies_of_one_draw_fail():
    key = jax.random.key(1)
    rolled = checks.program_of(lambda k: (lambda a: (a, jnp.roll(a, 1)))(jax.random.normal(k, (8,))), key, what="r")
    assert checks.drawn_values(rolled) == 8
    with pytest.raises(KataFailure, match="copies of those draws") as caught:
        checks.assert_draws(rolled, 16, what="two views", values="2 x 8 values")
    assert caught.value.code == "not-independent"
    two = checks.program_of(lambda k: [jax.random.normal(s, (8,)) for s in jax.random.split(k)], key, what="t")
    checks.assert_draws(two, 16, what="two views", values="2 x 8 values")
    # A draw thrown away does not count; a draw inside a scan counts once per step.
    decoy = checks.program_of(lambda k: jax.random.normal(k, (4,)) * 0.0, key, what="d")
    assert checks.drawn_values(decoy) == 0
    assert checks.drawn_values(checks.program_of(_walk(lambda k, p, i: jax.random.fold_in(k, i)), key)) == 50


def test_shuffled_or_negated_copies_of_draws_fail():
    a, b = jax.random.split(jax.random.key(3))
    half = jax.random.normal(a, (500,))
    copied = jnp.concatenate([half, -jax.random.permutation(b, half)])
    with pytest.raises(KataFailure, match="share their magnitude") as caught:
        checks.assert_not_rearranged(copied, what="samples")
    assert caught.value.code == "not-independent"
    checks.assert_not_rearranged(jax.random.normal(a, (1000,)), what="samples")


def test_keys_derived_from_drawn_values_fail():
    key = jax.random.key(2)
    by_position = checks.program_of(_walk(lambda k, p, i: jax.random.fold_in(k, p)), key, what="walk")
    with pytest.raises(KataFailure, match="derives a key from values it drew"):
        checks.assert_keys_not_from_draws(by_position, what="walk")
    by_step = checks.program_of(_walk(lambda k, p, i: jax.random.fold_in(k, i)), key, what="walk")
    checks.assert_keys_not_from_draws(by_step, what="walk")


def test_assert_reuses_program_sees_a_new_jit_per_call():
    x = jnp.arange(4.0)
    once = jax.jit(lambda v: v * 2)
    checks.assert_reuses_program(lambda: once(x), what="once(x)", calls="2 more calls")
    with pytest.raises(KataFailure, match="compiled 2 time") as caught:
        checks.assert_reuses_program(lambda: jax.jit(lambda v: v * 3)(x), what="fresh(x)", calls="2 more calls")
    assert caught.value.code == "recompiles"


def test_max_traces_counts_traces_with_chex_and_speaks_plainly():
    def double(v):
        return v * 2

    with checks.max_traces(double, 1, what="one shape") as counted:
        jax.jit(counted)(jnp.ones(5))
        jax.jit(counted)(jnp.ones(5))
    with pytest.raises(KataFailure, match="traced double more than 1 time") as caught:
        with checks.max_traces(double, 1, what="two shapes") as counted:
            jax.jit(counted)(jnp.ones(6))
            jax.jit(counted)(jnp.ones(7))
    assert caught.value.code == "repeated-work" and "Chex" not in str(caught.value)


def test_chex_backed_assertions_keep_the_checks_own_words():
    for call in (lambda: checks.assert_close({"a": 1.0}, {"b": 1.0}, what="f"),
                 lambda: checks.assert_close(np.ones(2), np.ones(3), what="f"),
                 lambda: checks.assert_close(np.ones(2), np.zeros(2), what="f"),
                 lambda: checks.assert_shape_dtype(np.ones(2, np.int32), (2,), np.float32, what="f")):
        with pytest.raises(KataFailure) as caught:
            call()
        assert "Chex" not in str(caught.value) and str(caught.value).startswith("f")
    checks.assert_close(np.array([np.nan, 1.0]), np.array([np.nan, 1.0]), what="f")  # NaN equals NaN


def test_host_reads_see_printing_and_formatting():
    x = jnp.arange(3.0) * 2
    with checks.host_reads() as reads:
        jnp.stack([x, x])  # stays on the device
    assert reads == []
    with checks.host_reads() as reads:
        print(x)
        f"{x[0]}"
    assert reads == ["float32[3]", "float32[]"]



def test_host_reads_see_numpy_and_every_other_way_out():
    x, s = jnp.arange(3.0) * 2, jnp.float32(2.0) + 1
    mesh = jax.make_mesh((jax.device_count(),), ("d",))
    sharded = jax.device_put(jnp.arange(2.0 * jax.device_count()), jax.sharding.NamedSharding(mesh, jax.P("d")))
    for read in (lambda: np.asarray(x), lambda: np.array(x), lambda: s.item(), lambda: np.from_dlpack(x),
                 lambda: np.asarray(sharded.addressable_shards[0].data), lambda: np.asarray(sharded),
                 lambda: np.float32(s), lambda: x.tolist()):
        with checks.host_reads() as reads:
            read()
        assert len(reads) == 1, reads
    with checks.host_reads() as reads:
        np.sum(x)  # x.sum(), on the device
        jnp.asarray(x) + 1
    assert reads == []
    assert memoryview(x).nbytes == 12  # the buffer protocol is back after the block


def test_host_reads_see_what_was_held_from_before_the_block_and_raw_pointers():
    """A getter taken before the block (`type(x)._value.fget`, its `__wrapped__`, jaxlib's C entries)
    is watched as well: the functions keep their identity and their code points at the watch. A raw
    buffer address handed to NumPy (`__array_interface__` from `unsafe_buffer_pointer()`) is a read."""
    impl = type(jnp.zeros(()))
    getter, pointer, copy = impl._value.fget, impl.unsafe_buffer_pointer, impl._single_device_array_to_np_array_did_copy

    class Raw:
        def __init__(self, a):
            self.keep, self.__array_interface__ = a, {"data": (a.unsafe_buffer_pointer(), True), "shape": a.shape,
                                                      "typestr": np.dtype(a.dtype).str, "version": 3}

    for read in (getter, getter.__wrapped__, copy, pointer, lambda x: np.asarray(Raw(x)),
                 lambda x: x.addressable_data(0).unsafe_buffer_pointer()):
        x = jnp.arange(3.0) * 2
        with checks.host_reads() as reads:
            read(x)
        assert reads == ["float32[3]"], (read, reads)
    assert impl._value.fget is getter and impl.unsafe_buffer_pointer is pointer  # the same objects after
    assert float(getter(jnp.float32(2.0))) == 2.0 and pointer(jnp.ones(2)) > 0


def test_host_reads_see_a_cached_host_copy_read_directly():
    """A read leaves the host copy of a sharded array cached on it (`_npy_value`): taking it from
    there, through no function of JAX's, is a read; JAX looking at its own cache is not."""
    mesh = jax.make_mesh((jax.device_count(),), ("d",))
    x = jax.device_put(jnp.arange(2.0 * jax.device_count()), jax.sharding.NamedSharding(mesh, jax.P("d")))
    np.asarray(x)  # before the block: a read of the grader's own, say
    with checks.host_reads() as reads:
        x.copy_to_host_async()
        jnp.sum(x)
    assert reads == []
    with checks.host_reads() as reads:
        cached = x._npy_value
    assert reads == [f"float32[{2 * jax.device_count()}]"] and cached is not None


def test_host_reads_see_an_asynchronous_copy_to_the_host():
    """`copy_to_host_async` starts the copy a read makes, with no one waiting: a read of an array not
    copied before (one whose copy is cached already copies nothing, above)."""
    x = jnp.arange(4.0) + 1.0
    with checks.host_reads() as reads:
        x.copy_to_host_async()
    assert reads == ["float32[4]"]


def test_no_stacked_copies_tells_in_axes_none_from_a_tiled_input():
    layer = lambda w, b: jnp.tanh(w @ jnp.ones(2) + b)  # noqa: E731
    w, b = jnp.ones((5, 3, 2)), jnp.ones(3)
    checks.assert_no_stacked_copies(lambda w, b: jax.vmap(layer, in_axes=(0, None))(w, b), w, b,
                                    shared={"[1]": "b"}, copies=5, what="mapped")
    tiled = lambda w, b: jax.vmap(layer)(w, jnp.tile(b, (5, 1)))  # noqa: E731
    with pytest.raises(KataFailure, match=r"float32\[5,3\] from b alone"):
        checks.assert_no_stacked_copies(tiled, w, b, shared={"[1]": "b"}, copies=5, what="tiled")
    # Copies laundered through another input that leaves their values as they are: judged by values.
    laundered = lambda w, b: jax.vmap(layer)(w, b + 0.0 * w[:, :, 0])  # noqa: E731
    with pytest.raises(KataFailure, match=r"float32\[5,3\] from b and other inputs"):
        checks.assert_no_stacked_copies(laundered, w, b, shared={"[1]": "b"}, copies=5, what="laundered")
    mixed = lambda w, b: jax.vmap(layer)(w, b + w[:, :, 0])  # noqa: E731 - not copies of b: another answer
    checks.assert_no_stacked_copies(mixed, w, b, shared={"[1]": "b"}, copies=5, what="mixed")


def test_follows_constants_tells_work_on_the_data_from_a_decoy():
    data = np.arange(1.0, 9.0, dtype=np.float32)
    picked = lambda const: const.shape == data.shape and np.array_equal(const, data)  # noqa: E731
    summed = jax.jit(lambda v: jnp.sum(v))
    assert checks.program_of(lambda: summed(data)).follows_constants(picked) is True
    decoy = jax.jit(lambda v, done: done + jnp.minimum(jnp.sum(v * 0.0), 0.0))
    assert checks.program_of(lambda: decoy(data, np.float32(data.sum()))).follows_constants(picked) is False
    assert checks.program_of(lambda: summed(data * 2)).follows_constants(picked) is None  # the host's numbers


def test_received_bytes_count_every_way_of_gathering():
    from jax.sharding import NamedSharding, PartitionSpec as P

    n = jax.device_count()
    mesh = jax.make_mesh((n,), ("d",))
    x = jax.device_put(np.ones((2 * n, 3), np.float32), NamedSharding(mesh, P("d")))
    ring = [(i, (i + 1) % n) for i in range(n)]
    block = 2 * 3 * 4

    def mapped(body):
        return jax.shard_map(body, mesh=mesh, in_specs=P("d"), out_specs=P("d"))

    def passed_round(b):  # n - 1 hops: every block reaches every device
        total = b
        for _ in range(n - 1):
            b = lax.ppermute(b, "d", ring)
            total = total + b
        return total

    def looped(b):
        return lax.fori_loop(0, n - 1, lambda i, c: (lax.ppermute(c[0], "d", ring), c[1] + c[0]), (b, b))[1]

    one_hop = checks.compiled_program(mapped(lambda b: lax.ppermute(b, "d", ring)), x, what="ring")
    assert sum(r for *_, r in one_hop.received()) == block
    for body in (passed_round, looped, lambda b: lax.all_gather(b, "d", tiled=True)[: b.shape[0]]):
        received = sum(r for *_, r in checks.compiled_program(mapped(body), x, what="gather").received())
        assert received == (n - 1) * block, body
    with pytest.raises(KataFailure, match="receives about") as caught:
        checks.assert_receives_at_most(mapped(passed_round), x, limit=block, what="gather", allowed="one block")
    assert caught.value.code == "wrong-collective"


def test_transfers_lists_every_copy_and_host_data():
    devices = jax.devices()
    a = jax.device_put(np.ones((2, 3), np.float32), devices[0])
    b = jax.device_put(np.ones(3, np.float32), devices[-1])

    def round_about(a, b):
        jax.device_put(b, a.sharding)  # a decoy copy first
        return jax.device_put(jax.device_put(a, b.sharding) + b, a.sharding)

    program = checks.program_of(lambda: round_about(a, b), what="add")
    assert [shape for shape, _, _ in program.transfers()] == [(3,), (2, 3), (2, 3)]
    host = checks.program_of(lambda: jax.device_put(np.asarray(a) + np.asarray(b), a.sharding), what="host")
    assert host.host_constants() == [(2, 3)]


def test_a_while_loop_must_stop_on_what_it_computes():
    def counted(x, bound):
        return lax.fori_loop(0, 10 + 0 * bound, lambda i, v: v / 2, x)

    def converging(x, tol):
        return lax.while_loop(lambda v: v > tol, lambda v: v / 2, x)

    checks.assert_loop_stops_on_data(checks.program_of(converging, 8.0, 1.0, what="w"), what="converging")
    with pytest.raises(KataFailure, match="stops on a step count alone"):
        checks.assert_loop_stops_on_data(checks.program_of(counted, 8.0, 3, what="c"), what="counted")


def test_a_setting_left_as_found_from_both_starting_values():
    def resets_to_off():
        jax.config.update("jax_debug_nans", True)
        jax.config.update("jax_debug_nans", False)

    before = checks.read_setting("jax_debug_nans")
    with pytest.raises(KataFailure, match=r"called with jax_debug_nans on, left it reading False \(it read True\)") as caught:
        checks.assert_leaves_setting(resets_to_off, "jax_debug_nans", what="f()")
    assert caught.value.code == "global-setting"
    checks.assert_leaves_setting(lambda: None, "jax_debug_nans", what="f()")
    assert checks.read_setting("jax_debug_nans") == before


def test_assert_jitted_refuses_a_program_that_hands_its_work_to_a_host_callback():
    def host_double(v):
        return np.asarray(v) * 2

    @jax.jit
    def doubled(x):
        return jax.pure_callback(host_double, jax.ShapeDtypeStruct(x.shape, x.dtype), x)

    x = jnp.ones(3)
    checks.assert_jitted(jax.jit(lambda v: v * 2), x, what="v * 2")
    with pytest.raises(checks.KataFailure, match="pure_callback") as failure:
        checks.assert_jitted(doubled, x, what="doubled(x)")
    assert failure.value.code == "host-transfer"



def test_watch_records_runs_out_of_reach_of_what_it_hands_out():
    import jax.numpy as jnp

    def body(x):
        return x * 2

    watch = checks.Watch(body, settings=("jax_debug_nans",))
    jax.jit(watch.f)(jnp.ones(2))
    with jax.debug_nans(True):
        watch.f(jnp.ones(2))
    watch.f.traces, watch.f.seen = 1, [True]  # what a Traced object held: here it is nobody's record
    assert watch.f.__name__ == "body" and not hasattr(watch.f, "__code__")
    jax.make_jaxpr(watch.f)(jnp.ones(3))  # traced, but for no call of a jitted function
    with pytest.raises(TypeError):
        watch.f(jnp.ones(4), "not a factor")  # a run that raises is recorded, as one that never returned
    assert watch.runs() == [checks.Run(True, {"jax_debug_nans": False}, ((2,),), True, True),
                            checks.Run(False, {"jax_debug_nans": True}, ((2,),), False, True),
                            checks.Run(True, {"jax_debug_nans": False}, ((3,),), False, True),
                            checks.Run(False, {"jax_debug_nans": False}, ((4,), None), False, False)]
    assert watch.traces() == 2


def test_every_setting_sees_a_flag_left_changed():
    """jax_disable_most_optimizations is a plain Flag, not a config State: a setting all the same."""
    with pytest.raises(checks.KataFailure, match="jax_disable_most_optimizations from False to True"):
        try:
            checks.assert_leaves_settings(lambda: jax.config.update("jax_disable_most_optimizations", True),
                                          what="f()")
        finally:
            jax.config.update("jax_disable_most_optimizations", False)


def test_every_setting_sees_a_sibling_setting_left_changed():
    before = checks.every_setting()
    jax.config.update("jax_explicit_x64_dtypes", "allow")
    try:
        assert checks.changed_settings(before, checks.every_setting()) == [
            "jax_explicit_x64_dtypes from 'warn' to 'allow'"]
        with pytest.raises(checks.KataFailure, match="jax_explicit_x64_dtypes"):
            checks.assert_leaves_settings(lambda: jax.config.update("jax_explicit_x64_dtypes", "error"), what="f()")
    finally:
        jax.config.update("jax_explicit_x64_dtypes", "warn")


def test_witness_judges_each_compile_on_the_stack_it_was_raised_from():
    from grader.checks.compiles import is_eager
    from grader.runtime import witness

    ledger = witness.Ledger(is_eager)
    ledger.answer("compiled", ())  # raised by hand, with no program compiling on the stack: the learner's
    assert ledger.answer("compiles", ()) == (1, 1)
