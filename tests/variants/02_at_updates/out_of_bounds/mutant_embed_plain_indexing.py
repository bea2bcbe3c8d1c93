"""Wrong: plain indexing clamps, so an id past the end (or -1) reads a real row instead of zeros."""

import jax.numpy as jnp


def embed(table: jnp.ndarray, ids: jnp.ndarray) -> jnp.ndarray:
    return table[ids]


def deposit(grid: jnp.ndarray, cells: jnp.ndarray, amounts: jnp.ndarray) -> jnp.ndarray:
    return grid.at[cells].add(amounts, mode="clip")


def write_window(buffer: jnp.ndarray, start: int | jnp.ndarray, chunk: jnp.ndarray) -> jnp.ndarray:
    positions = start + jnp.arange(chunk.shape[0])
    return buffer.at[positions].set(chunk, mode="drop")
