"""Wrong: hard-codes the sizes the visible checks use (a 4-row table, a 5-cell grid), so other sizes break (only the hidden check catches it)."""

import jax.numpy as jnp


def embed(table: jnp.ndarray, ids: jnp.ndarray) -> jnp.ndarray:
    ids = jnp.where(ids < 0, 4, ids)
    return table.at[ids].get(mode="fill", fill_value=0)


def deposit(grid: jnp.ndarray, cells: jnp.ndarray, amounts: jnp.ndarray) -> jnp.ndarray:
    return grid.at[jnp.minimum(cells, 4)].add(amounts)


def write_window(buffer: jnp.ndarray, start: int | jnp.ndarray, chunk: jnp.ndarray) -> jnp.ndarray:
    positions = start + jnp.arange(chunk.shape[0])
    return buffer.at[positions].set(chunk, mode="drop")
