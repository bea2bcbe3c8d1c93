"""Hidden checks for at-4 (out_of_bounds): a table, grid and buffer of other sizes."""

import jax.numpy as jnp
import numpy as np

from grader import checks

# 6 rows instead of 4, 3 cells instead of 5, a 6-slot buffer and a 3-entry chunk.
TABLE = np.arange(1, 13, dtype=np.float32).reshape(6, 2)
IDS = np.array([-1, 5, 6, 4, -6, 10, 0])
GRID = np.array([0.5, 0.0, 1.0], dtype=np.float32)
CELLS = np.array([0, 2, 3, 8, 1])
AMOUNTS = np.array([1.0, 2.0, 3.0, 4.0, 5.0], dtype=np.float32)
BUFFER = np.arange(6, dtype=np.float32)
CHUNK = np.array([20.0, 21.0, 22.0], dtype=np.float32)


def test_other_table_grid_and_buffer_sizes(exercise):
    valid = (IDS >= 0) & (IDS < len(TABLE))
    rows = np.where(valid[:, None], TABLE[np.where(valid, IDS, 0)], 0.0)
    checks.assert_close(exercise.embed(jnp.asarray(TABLE), jnp.asarray(IDS)), rows,
                        what=f"embed(table, {IDS.tolist()}) with a 6-row table",
                        hint="Take the table size from table.shape[0], not from the example's 4 rows.")
    grid = GRID.copy()
    np.add.at(grid, np.minimum(CELLS, len(GRID) - 1), AMOUNTS)
    checks.assert_close(exercise.deposit(jnp.asarray(GRID), jnp.asarray(CELLS), jnp.asarray(AMOUNTS)), grid,
                        what=f"deposit(grid, {CELLS.tolist()}, amounts) with a 3-cell grid",
                        hint="Cells past the end of this grid land in its own last cell.")
    for start in (0, 4, 6):
        want = BUFFER.copy()
        fits = CHUNK[: max(0, len(BUFFER) - start)]
        want[start:start + len(fits)] = fits
        checks.assert_close(exercise.write_window(jnp.asarray(BUFFER), start, jnp.asarray(CHUNK)), want,
                            what=f"write_window(arange(6), {start}, {CHUNK.tolist()})")
