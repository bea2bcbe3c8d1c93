"""Checks for at-4 (out_of_bounds)."""

import jax
import jax.numpy as jnp
import numpy as np

from grader import checks

# Row 0 is not zeros, so a negative id clamped or wrapped onto a real row shows.
TABLE = np.arange(1, 13, dtype=np.float32).reshape(4, 3)
GRID = np.array([1.0, 0.0, 2.0, 0.0, 0.5], dtype=np.float32)
CELLS = np.array([0, 4, 7, 2, 5, 4, 12])
AMOUNTS = np.array([1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0], dtype=np.float32)
BUFFER = np.arange(8, dtype=np.float32)
CHUNK = np.array([10.0, 11.0, 12.0, 13.0], dtype=np.float32)


def embedded(ids):
    valid = (ids >= 0) & (ids < len(TABLE))
    return np.where(valid[:, None], TABLE[np.where(valid, ids, 0)], 0.0)


def deposited():
    out = GRID.copy()
    np.add.at(out, np.minimum(CELLS, len(GRID) - 1), AMOUNTS)
    return out


def written(start):
    out = BUFFER.copy()
    fits = CHUNK[: max(0, len(BUFFER) - start)]
    out[start:start + len(fits)] = fits
    return out


def test_embed_gives_zero_rows_past_the_end(exercise):
    ids = np.array([0, 2, 4, 1, 9, 3])
    checks.assert_close(
        exercise.embed(jnp.asarray(TABLE), jnp.asarray(ids)), embedded(ids),
        what=f"embed(table, {ids.tolist()}) with a 4-row table",
        hint="Plain indexing and .at[ids].get() clamp an id past the end to the last row; "
             ".at[ids].get(mode='fill', fill_value=0) returns the fill value there instead.")


def test_embed_gives_zero_rows_for_negative_ids(exercise):
    ids = np.array([-1, 2, -1, 0, -4])
    checks.assert_close(
        exercise.embed(jnp.asarray(TABLE), jnp.asarray(ids)), embedded(ids),
        what=f"embed(table, {ids.tolist()}) with a 4-row table",
        hint="Negative ids count from the end, as in Python, even with mode='fill': -1 reads the "
             "last row. Move negative ids out of range first (e.g. jnp.where(ids < 0, len(table), "
             "ids)) or mask the rows with jnp.where.")


def test_deposit_clamps_into_the_last_cell(exercise):
    out = exercise.deposit(jnp.asarray(GRID), jnp.asarray(CELLS), jnp.asarray(AMOUNTS))
    checks.assert_close(
        out, deposited(), what=f"deposit(grid, {CELLS.tolist()}, amounts) with a 5-cell grid",
        hint=f"The total should be {deposited().sum():g}. By default an update past the end is "
             "dropped silently; mode='clip' clamps those cells onto the last one. Repeated cells "
             "must add up (.add, not .set).")


def test_write_window_drops_what_falls_off_the_end(exercise):
    for start in (0, 3, 6, 8):
        checks.assert_close(
            exercise.write_window(jnp.asarray(BUFFER), start, jnp.asarray(CHUNK)), written(start),
            what=f"write_window(arange(8), {start}, {CHUNK.tolist()})",
            hint="Write chunk[j] at start + j and drop the writes past the end (mode='drop', the "
                 "default for updates). lax.dynamic_update_slice clamps the start so the whole "
                 "chunk fits, shifting it back over earlier entries; mode='clip' piles the "
                 "overflow onto the last entry.")


def test_all_three_run_under_jit(exercise):
    table, grid, buffer, chunk = (jnp.asarray(a) for a in (TABLE, GRID, BUFFER, CHUNK))
    ids = np.array([3, -1, 9, 0])
    checks.assert_close(jax.jit(exercise.embed)(table, jnp.asarray(ids)), embedded(ids),
                        what=f"jax.jit(embed)(table, {ids.tolist()})")
    checks.assert_close(jax.jit(exercise.deposit)(grid, jnp.asarray(CELLS), jnp.asarray(AMOUNTS)),
                        deposited(), what="jax.jit(deposit)(grid, cells, amounts)")
    starts = [jnp.int32(s) for s in (2, 6, 8)]
    write = jax.jit(exercise.write_window)
    with checks.count_compiles() as log:
        for start in starts:
            checks.assert_close(write(buffer, start, chunk), written(int(start)),
                                what=f"jax.jit(write_window)(buffer, {int(start)}, chunk)")
    checks.assert_compiles(
        log, what="jax.jit(write_window)", calls="3 calls with different traced starts", expected=1,
        why="a traced start has no Python value: compute the positions start + jnp.arange(len(chunk)) "
            "and let the update's mode handle the ones past the end")
