"""A failure names the mistake actually made: slips whose symptom points elsewhere, and raw JAX errors.

Each entry is a variant kept in tests/variants (graded with the soundness runs, so these tests cost
nothing more) and what the reason of one of its exercise's checks must say, and must not say: the
cause a learner reading only that line would otherwise be sent after.
"""

from __future__ import annotations

import pytest

from support import EXERCISES, variants

# (variant label, check name, phrases the reason must hold, phrases it must not hold)
SLIPS = [
    # Metrics saved on the side while jax.grad traced: a leaked tracer, though no NumPy was called.
    ("grad-3:mutant_metrics_kept_on_the_side", "test_metrics_come_back_with_the_gradient",
     ["is a tracer, not an array", "has_aux=True"], ["handed to NumPy"]),
    # The one-example function called once on the whole batch, where jnp.dot happens to broadcast.
    ("vmap-1:mimic_whole_batch_call", "test_maps_predict_single_itself",
     ["once with the whole batch"], ["write the batched formula again"]),
    # int64 input converted before 64-bit types were on: no float exists, the values were cut to int32.
    ("dtype-4:mutant_converted_before_x64", "test_exact_int64_milliseconds",
     ["entered JAX as int32", "before 64-bit types were on"], ["detour"]),
    # errors= asks for every check; the Error is never raised.
    ("debug-1:mutant_ignores_error", "test_out_of_bounds_index_raises_where_it_happened",
     ["err.throw()", "never raises the Error"], ["only when errors= asks"]),
    # jax.typeof(x) is used already; shard_shape got the array instead of its shape.
    ("explicit-2:mutant_array_to_shard_shape", "test_block_shape_while_tracing",
     ["shard_shape was handed the array itself", "x.shape"], ["The sharding is in jax.typeof(x)"]),
    # y is converted; the strong NumPy gain is what promotes.
    ("dtype-1:mutant_cast_y_only", "test_returns_x_dtype_with_the_right_values",
     ["the gain is not", "NumPy float32 scalar"], ["Convert y and gain"]),
    ("dtype-1:mutant_cast_y_only", "test_every_step_runs_in_x_dtype",
     ["the gain is not"], ["y took part before"]),
    # The caller's mesh is Explicit and not the learner's to rebuild: reshard, not an Auto mesh.
    ("explicit-3:mutant_constraint_on_explicit", "test_result_is_symmetric_and_split_like_a",
     ["jax.reshard's job", "the caller's"], ["AxisType.Auto"]),
    # The policy saves 'pre', but no value carries that name.
    ("memory-2:mutant_policy_without_name", "test_each_layer_keeps_its_input_and_pre",
     ["no value in block is named 'pre'"], ["the default saves nothing"]),
    # A pure_callback that records: the fix is the side-effect callback, not debug-4's vmap_method.
    ("debug-3:mutant_used_pure_callback", "test_vmap_records_every_data_set",
     ["not a missing option", "side effect"], ["vmap_method='sequential'"]),
    # err.throw() inside the jitted function: f is checkified, the throw is what jit staged.
    ("debug-1:mutant_throw_inside_jit", "test_fs_own_checks_raise",
     ["err.throw() runs inside the jitted function", "outside jit"], ["a checkify.check inside f was staged"]),
    ("debug-1:mutant_throw_inside_jit", "test_out_of_bounds_index_raises_where_it_happened",
     ["err.throw() runs inside the jitted function"], ["a checkify.check inside f was staged"]),
    # P() on a mesh over every device: the spec copies, the mesh is right.
    ("sharding-2:mutant_replicated", "test_each_device_holds_its_own_block_of_rows",
     ["mesh already spans all", "P() copies"], ["build the mesh over every device"]),
    # An own 1-D mesh under the caller's 2-D one, whose devices are shuffled: block 0 lands elsewhere.
    ("explicit-1:mimic_own_mesh", "test_other_mesh_axes_hold_copies",
     ["a mesh of your own", "the first block of rows sits on device 0 where the caller's mesh puts it"],
     ["puts it on device 0"]),
    # The equality is there, written the other way round: the symbolic dimension must stand alone on the left.
    ("export-3:mutant_reversed_equality", "test_exports_one_artefact_for_every_even_row_count",
     ["alone on the left", "'b == 2*k'"], ["an equality constraint that defines it"]),
    ("export-3:mutant_divisibility_constraint", "test_exports_one_artefact_for_every_even_row_count",
     ["alone on the left", "'mod(b, 2) == 0'"], ["an equality constraint that defines it"]),
    # The matmul is bfloat16; the float32 bias is what promotes the add.
    ("dtype-2:mutant_float32_bias", "test_loss_multiplies_in_bfloat16_and_averages_in_float32",
     ["adds the bias in float32", "params['b'] is still float32"], ["the matmul already returns"]),
    # One dtype for lr, a float, but too narrow: rounded, not truncated.
    ("jit-9:mutant_bfloat16_rate", "test_mixed_scalar_stream_compiles_once_with_float32_updates",
     ["0.1 rounded to bfloat16"], ["integer dtype truncates"]),
]

# Raw JAX errors: the reason is the plain line grader.runtime.explain gives them.
RAW_ERRORS = [
    ("pytree-3:mutant_bare_children", "test_flattens_to_mean_and_log_std_and_back",
     ["flatten_with_keys returned bare children"], ["too many values to unpack"]),
    ("explicit-1:mutant_abstract_mesh", "test_rows_are_split_over_the_callers_mesh",
     ["AbstractMesh", "no devices"], ["is_fully_addressable"]),
    ("custom-1:mutant_fwd_output_only", "test_forward_is_identity_and_backward_clips",
     ["fwd rule returned only the output"], ["list or tuple of length two"]),
    ("explicit-2:mutant_array_to_shard_shape", "test_block_shape_of_placed_arrays",
     ["an array was used where Python needs a hashable value"], ["ArrayImpl"]),
    ("vmap-1:mutant_no_in_axes", "test_matches_hand_batched_model",
     ["a shared argument needs None in in_axes"], ["rank should be at least"]),
]

SELECTED = {e.id for e in EXERCISES}


@pytest.mark.parametrize("label, check, must, must_not", SLIPS + RAW_ERRORS,
                         ids=[f"{label}::{check}" for label, check, _, _ in SLIPS + RAW_ERRORS])
def test_the_failure_names_the_real_cause(runs, label, check, must, must_not):
    if label.split(":")[0] not in SELECTED:
        pytest.skip("KATAS_ONLY leaves this exercise out")
    kind = label.split(":")[1].split("_")[0]
    variant = next((v for v in variants(kind) if v.label == label), None)
    assert variant is not None, f"no variant {label} in tests/variants"
    results = runs.results(variant)
    found = [c for c in results if c.nodeid.endswith(f"::{check}")]
    assert found, f"{label} has no check {check}"
    result = found[0].result
    assert not result.passed, f"{label} passes {check}"
    missing = [phrase for phrase in must if phrase not in result.reason]
    wrong = [phrase for phrase in must_not if phrase in result.reason]
    assert not missing and not wrong, (f"{label} {check}: the reason should name the real cause "
                                       f"(lacks {missing}, has {wrong}):\n{result.reason}")


def _raised(call) -> BaseException:
    try:
        call()
    except Exception as error:  # noqa: BLE001 - the error is what is tested
        return error
    raise AssertionError("no error raised")


def test_raw_jax_errors_come_with_their_lesson():
    import jax
    import jax.numpy as jnp
    import numpy as np
    from jax.sharding import NamedSharding, PartitionSpec as P

    from grader.runtime.explain import explain

    class Pair:
        def __init__(self, a, b):
            self.a, self.b = a, b

    jax.tree_util.register_pytree_with_keys(Pair, lambda p: ((p.a, p.b), None), lambda _, c: Pair(*c))

    @jax.custom_vjp
    def identity(x):
        return x

    identity.defvjp(lambda x: x, lambda _, g: (g,))
    mesh = jax.make_mesh((jax.device_count(),), ("data",))
    x = jax.device_put(np.ones((jax.device_count(), 2), np.float32), NamedSharding(mesh, P("data")))
    with jax.set_mesh(mesh):
        abstract = NamedSharding(jax.sharding.get_abstract_mesh(), P("data"))
        placed = _raised(lambda: jax.device_put(np.ones((jax.device_count(), 2)), abstract))
    cases = {
        "bare children, eager": (_raised(lambda: jax.tree.leaves(Pair(jnp.ones(3), jnp.ones(3)))), "GetAttrKey"),
        "bare children, under jit": (_raised(lambda: jax.jit(lambda p: p)(Pair(jnp.ones(2), jnp.ones(2)))),
                                     "GetAttrKey"),
        "abstract mesh": (placed, "bare PartitionSpec"),
        "fwd output only": (_raised(lambda: jax.grad(lambda v: identity(v).sum())(jnp.ones(3))), "residuals"),
        "array as a shape": (_raised(lambda: jax.typeof(x).sharding.shard_shape(x)), "x.shape"),
        "vmap without in_axes": (_raised(lambda: jax.vmap(lambda w, x: w * x)(jnp.float32(2), jnp.ones(3))),
                                 "in_axes=(None, None, 0)"),
        "tracer as a shape": (_raised(lambda: jax.jit(lambda v: jnp.zeros(jax.typeof(v).sharding.shard_shape(v)))(x)),
                              "x.shape"),
    }
    for name, (error, fix) in cases.items():
        lesson = explain(error)
        assert lesson is not None, f"{name}: {type(error).__name__}: {error} has no plain lines"
        assert fix in lesson.idea and lesson.link.startswith("https://docs.jax.dev/"), (name, lesson)
    assert explain(_raised(lambda: {}[[]])) is None  # an unhashable list is not the array lesson
