"""Hidden checks for export-1 (symbolic_batch): another function with another number of features."""

import jax
import jax.numpy as jnp
import numpy as np

from grader import checks


def gate(x):
    return x * jnp.exp(-(x ** 2)) + jnp.sum(x, axis=1, keepdims=True)


def test_other_features_other_function(exercise):
    exported = exercise.export_batched(gate, 3)
    if not isinstance(exported, jax.export.Exported):
        checks.fail(f"export_batched(gate, 3) returned {type(exported).__name__}, not one "
                    f"jax.export.Exported.", "not-portable")
    shape = exported.in_avals[0].shape
    if len(shape) != 2 or shape[1] != 3:
        checks.fail(f"export_batched(gate, 3) exported for input shape {tuple(shape)}; expected (batch, 3): "
                    f"the number of features is the argument, not the one of the examples you have seen.",
                    "wrong-shape")
    if not jax.export.is_symbolic_dim(shape[0]):
        checks.fail(f"export_batched(gate, 3) fixed the batch size to {shape[0]}; expected a symbolic "
                    f"dimension that serves every batch size.", "not-portable")
    x = np.random.default_rng(5).normal(size=(6, 3)).astype(np.float32)
    x64 = x.astype(np.float64)
    checks.assert_close(exported.call(jnp.asarray(x)), x64 * np.exp(-(x64 ** 2)) + x64.sum(axis=1, keepdims=True),
                        what="export_batched(gate, 3).call(x) for a batch of 6")
