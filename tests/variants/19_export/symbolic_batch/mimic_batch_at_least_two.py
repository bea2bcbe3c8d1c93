"""Values right for batches of 2 and more, portability wrong: the symbol is constrained to b >= 2, so
the artefact refuses a batch of one, which "every batch size" includes."""

import jax
import jax.numpy as jnp


def export_batched(f, features):
    shape = jax.export.symbolic_shape(f"b, {features}", constraints=("b >= 2",))
    return jax.export.export(jax.jit(f))(jax.ShapeDtypeStruct(shape, jnp.float32))
