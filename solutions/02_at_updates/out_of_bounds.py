"""Reference solution for at-4: pick each out-of-range behaviour with mode=."""

import jax.numpy as jnp


def embed(table: jnp.ndarray, ids: jnp.ndarray) -> jnp.ndarray:
    # mode="fill" only sees ids past either end once negatives are normalised,
    # so -1 would read the last row: send every negative id past the end first.
    ids = jnp.where(ids < 0, table.shape[0], ids)
    return table.at[ids].get(mode="fill", fill_value=0)


def deposit(grid: jnp.ndarray, cells: jnp.ndarray, amounts: jnp.ndarray) -> jnp.ndarray:
    # The default would drop the overflow; clip piles it onto the last cell.
    return grid.at[cells].add(amounts, mode="clip")


def write_window(buffer: jnp.ndarray, start: int | jnp.ndarray, chunk: jnp.ndarray) -> jnp.ndarray:
    positions = start + jnp.arange(chunk.shape[0])
    return buffer.at[positions].set(chunk, mode="drop")
