"""Wrong: lax.dynamic_update_slice clamps the start so the chunk fits, shifting it back over earlier entries."""

import jax
import jax.numpy as jnp


def embed(table: jnp.ndarray, ids: jnp.ndarray) -> jnp.ndarray:
    ids = jnp.where(ids < 0, table.shape[0], ids)
    return table.at[ids].get(mode="fill", fill_value=0)


def deposit(grid: jnp.ndarray, cells: jnp.ndarray, amounts: jnp.ndarray) -> jnp.ndarray:
    return grid.at[cells].add(amounts, mode="clip")


def write_window(buffer: jnp.ndarray, start: int | jnp.ndarray, chunk: jnp.ndarray) -> jnp.ndarray:
    return jax.lax.dynamic_update_slice(buffer, chunk, (start,))
