"""Out-of-range indices: JAX never raises, so choose what happens with `mode=`.

NumPy raises an IndexError for an index past the end. A compiled program has
no way to raise, so JAX quietly does something: plain indexing and
`.at[i].get()` clamp to the edge (an index past the end reads the last
element), and updates (`.set`, `.add`, ...) drop writes that fall outside.
`mode=` picks the behaviour: "fill" (a get returns `fill_value`, NaN for
floats by default), "clip" (clamp to the edge), "drop" (skip the write).
Negative indices count from the end first, as in Python, whatever the mode:
-1 is the last element, not out of range.
Docs: https://docs.jax.dev/en/latest/_autosummary/jax.numpy.ndarray.at.html
      https://docs.jax.dev/en/latest/notebooks/Common_Gotchas_in_JAX.html#out-of-bounds-indexing

Task (fill-in): write the three functions below. Each must also work under
jax.jit with its index arguments traced, and never copy values to NumPy;
keep the names and signatures.
"""

import jax.numpy as jnp


def embed(table: jnp.ndarray, ids: jnp.ndarray) -> jnp.ndarray:
    """Rows `table[ids]`, shape (len(ids), table.shape[1]); an id outside
    0..len(table)-1, such as the padding id -1, gives a row of zeros."""
    raise NotImplementedError("TODO: gather the rows, with zero rows for out-of-range ids")


def deposit(grid: jnp.ndarray, cells: jnp.ndarray, amounts: jnp.ndarray) -> jnp.ndarray:
    """`grid` with each amount added to grid[cell] (a cell may repeat). Cells are
    >= 0; a cell past the end lands in the last cell, so no amount is lost."""
    raise NotImplementedError("TODO: scatter-add the amounts, clamping cells past the end")


def write_window(buffer: jnp.ndarray, start: int | jnp.ndarray, chunk: jnp.ndarray) -> jnp.ndarray:
    """`buffer` with chunk[j] written at start + j (0 <= start <= len(buffer));
    what falls past the end of the buffer is dropped, nothing else changes."""
    raise NotImplementedError("TODO: write the chunk at start, dropping what falls past the end")
