"""Checks for export-1 (symbolic_batch)."""

import jax
import jax.numpy as jnp
import numpy as np

from grader import checks

SHAPE_POLY = f"{checks.DOCS}/export/shape_poly.html"


def score(x):
    """(batch, d) -> (batch, 2): centred over the batch, squashed, projected."""
    d = x.shape[1]
    return jnp.tanh(x - jnp.mean(x, axis=0)) @ jnp.linspace(-1.0, 1.0, 2 * d).reshape(d, 2)


def numpy_score(x):
    x = np.asarray(x, np.float64)
    d = x.shape[1]
    return np.tanh(x - x.mean(axis=0)) @ np.linspace(-1.0, 1.0, 2 * d).reshape(d, 2)


def check_exported(exported, features, *, what):
    """The artefact is one jax.export.Exported taking float32[<symbol>, features]."""
    if not isinstance(exported, jax.export.Exported):
        checks.fail(f"{what} returned {type(exported).__name__}, not a jax.export.Exported: one artefact, "
                    f"built once, must serve every batch size. A wrapper that exports again for each new "
                    f"size keeps needing the Python function, which a saved artefact does not have. "
                    f"See {SHAPE_POLY}", "not-portable")
    avals = exported.in_avals
    if len(avals) != 1 or len(avals[0].shape) != 2:
        checks.fail(f"{what} exported inputs {list(avals)}; expected one 2-D float32 array "
                    f"(batch, {features}).", "wrong-shape")
    (aval,) = avals
    batch, width = aval.shape
    if not jax.export.is_symbolic_dim(batch):
        checks.fail(f"{what} exported for inputs of type {aval.str_short()}: the batch size {batch} is "
                    f"fixed in the artefact, which refuses every other batch size. A symbolic dimension "
                    f"keeps it open, so one artefact serves them all. See {SHAPE_POLY}", "not-portable")
    if width != features:
        checks.fail(f"{what} exported for inputs of type {aval.str_short()}; expected float32[{batch},"
                    f"{features}]: only the batch dimension is symbolic, and the number of features is "
                    f"the argument.", "wrong-shape")
    if aval.dtype != jnp.float32:
        checks.fail(f"{what} exported for {aval.dtype} inputs ({aval.str_short()}); expected float32. The "
                    f"artefact refuses any other dtype when it is called.", "wrong-shape")
    return aval


def test_in_avals_carry_a_symbolic_batch(exercise):
    with checks.max_traces(score, 1, what="export_batched(score, 4)",
                           why="Exporting traces and lowers the function one time, for the symbolic "
                               "shape.") as counted:
        exported = exercise.export_batched(counted, 4)
    check_exported(exported, 4, what="export_batched(score, 4)")
    out = exported.out_avals
    if len(out) != 1 or out[0].shape[1] != 2 or out[0].shape[0] != exported.in_avals[0].shape[0]:
        checks.fail(f"the artefact's output types are {[a.str_short() for a in out]}; expected "
                    f"float32[{exported.in_avals[0].shape[0]},2], with the same batch symbol as the input.")


def test_one_artefact_serves_several_batch_sizes(exercise):
    with checks.max_traces(score, 1, what="one export_batched(score, 4) and calls with 3 batch sizes",
                           why=f"The artefact holds the lowered program: calling it never runs the Python "
                               f"function again. See {SHAPE_POLY}") as counted:
        _serves_batch_sizes(exercise, counted)


def _serves_batch_sizes(exercise, counted):
    exported = exercise.export_batched(counted, 4)
    check_exported(exported, 4, what="export_batched(score, 4)")
    rng = np.random.default_rng(0)
    for batch in (1, 2, 5):  # a batch of one too: "every batch size" has no lower limit above it
        x = rng.normal(size=(batch, 4)).astype(np.float32)
        with checks.count_compiles() as log:
            try:
                out = exported.call(jnp.asarray(x))
            except ValueError as error:
                checks.fail(f"the artefact refuses a batch of {batch}: {str(error).split('.')[0]}. It must "
                            f"serve every batch size, 1 included: a bare symbol (\"b, {4}\"), with no "
                            f"constraint or expression that rules sizes out. See {SHAPE_POLY}", "not-portable")
        checks.assert_close(out, numpy_score(x), rtol=1e-5, atol=1e-6,
                            what=f"exported.call(x) for a batch of {batch}")
        if not any("call_exported" in name for name in log.names + log.eager):
            checks.fail(f"exported.call on a new batch size ({batch}) compiled nothing from the artefact; "
                        f"each new size compiles the same StableHLO for that size.", "not-portable")
