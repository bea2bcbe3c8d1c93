"""Values right, idea skipped: a wrapper that exports a new concrete artefact for each batch size it meets (it needs f every time)."""

import jax
import jax.numpy as jnp


class _PerBatch:
    def __init__(self, f, features):
        self.f, self.features, self.by_size = f, features, {}
        self.in_avals = self._for(1).in_avals

    def _for(self, batch):
        if batch not in self.by_size:
            spec = jax.ShapeDtypeStruct((batch, self.features), jnp.float32)
            self.by_size[batch] = jax.export.export(jax.jit(self.f))(spec)
        return self.by_size[batch]

    def call(self, x):
        return self._for(x.shape[0]).call(x)


def export_batched(f, features):
    return _PerBatch(f, features)
