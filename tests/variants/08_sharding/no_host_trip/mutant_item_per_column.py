"""Wrong: jitted pieces, but each column's statistics come back as Python floats with .item()."""

import jax
import jax.numpy as jnp


@jax.jit
def _column_stats(x):
    return jnp.mean(x, axis=0), jnp.std(x, axis=0)


def standardize(x):
    mean, std = _column_stats(x)
    columns = [(x[:, j] - mean[j].item()) / std[j].item() for j in range(x.shape[1])]
    return jnp.stack(columns, axis=1)
