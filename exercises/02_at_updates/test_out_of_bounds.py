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
AT_DOCS = f"{checks.DOCS}/_autosummary/jax.numpy.ndarray.at.html"
TRACE_ERRORS = (jax.errors.ConcretizationTypeError, jax.errors.TracerBoolConversionError,
                jax.errors.TracerIntegerConversionError, jax.errors.TracerArrayConversionError,
                IndexError, TypeError)
AT_WHY = ("The out-of-bounds modes of `.at[...]` (mode=\"fill\", \"clip\", \"drop\") work on JAX arrays where "
          "they are; NumPy copies and NumPy's indexing rules are not the task's.")


def embedded(ids, table=TABLE):
    valid = (ids >= 0) & (ids < len(table))
    return np.where(valid[:, None], table[np.where(valid, ids, 0)], 0.0)


def deposited():
    out = GRID.copy()
    np.add.at(out, np.minimum(CELLS, len(GRID) - 1), AMOUNTS)
    return out


def written(start):
    out = BUFFER.copy()
    fits = CHUNK[: max(0, len(BUFFER) - start)]
    out[start:start + len(fits)] = fits
    return out


def _embed_went_wrong(out, ids, table=TABLE):
    """Name what the first wrong row shows: a clamp, a wrap, a NaN fill."""
    out, want, n = np.asarray(out), embedded(ids, table), len(table)
    if out.shape != want.shape:
        return f"The result holds one row of width table.shape[1] per id: shape {want.shape}."
    for row, i in enumerate(ids.tolist()):
        if np.allclose(out[row], want[row]):
            continue
        if np.isnan(out[row]).any():
            return (f"Id {i} gave a row of NaN: a fill-mode get fills floats with NaN unless it is told "
                    f"which value to use, and this task wants zero rows.")
        if i >= n and np.allclose(out[row], table[-1]):
            return (f"Id {i} lies past the end of the {n}-row table, yet it read the last row: a get "
                    f"clamps out-of-range indices by default. A get can be told what to do with them "
                    f"instead (its mode=).")
        if i < 0 and i >= -n and np.allclose(out[row], table[i]):
            return (f"Id {i} read row {i % n}: negative ids count from the end, as in Python, in every "
                    f"indexing mode, so a padding id -1 reads the last row. Move negative ids out of "
                    f"range, or mask their rows, before the get.")
        if i < 0 and np.allclose(out[row], table[0]):
            return f"Id {i} read row 0: it was clamped to the first row; it should give zeros."
        return f"Id {i} should give {want[row].tolist()}."
    return ""


def _deposit_went_wrong(out, grid=GRID, cells=CELLS, amounts=AMOUNTS):
    out = np.asarray(out, np.float64)
    want = grid.astype(np.float64).copy()
    np.add.at(want, np.minimum(cells, len(grid) - 1), amounts)
    if out.shape != want.shape:
        return ""
    lost = want.sum() - out.sum()
    past = sorted(set(cells[cells >= len(grid)].tolist()))
    if lost > 1e-3:
        return (f"{lost:g} of the deposited amount vanished (the total should be {want.sum():g}): the "
                f"amounts for cells {past}, past the end, were dropped, which is what an update does with "
                f"out-of-range indices by default. Those cells must land in the last cell instead, and "
                f"updates take a mode= too.")
    return "Every amount is added (a cell may repeat, so the amounts must add up) to its cell."


def _window_went_wrong(out, start):
    out = np.asarray(out)
    if out.shape != BUFFER.shape:
        return f"The result keeps the buffer's shape {BUFFER.shape}."
    overflow = start + len(CHUNK) - len(BUFFER)
    if overflow > 0:
        shifted = BUFFER.copy()
        shifted[len(BUFFER) - len(CHUNK):] = CHUNK
        if np.array_equal(out, shifted):
            return (f"The chunk was shifted back so that all of it fits, overwriting entries before "
                    f"start={start}: lax.dynamic_update_slice clamps its start index. Writes past the "
                    f"end must be dropped instead.")
        if out[-1] == CHUNK[-1] and not np.array_equal(out, written(start)):
            return (f"The last entry holds {out[-1]:g}, the chunk's last value: the writes past the end "
                    f"were clamped onto the last slot (the last one wins) instead of being dropped.")
    return "Write chunk[j] at start + j, drop what falls past the end, and leave everything else alone."


def test_embed_gives_zero_rows_past_the_end(exercise):
    ids = np.array([0, 2, 4, 1, 9, 3])
    out = checks.call_on_device(exercise.embed, jnp.asarray(TABLE), jnp.asarray(ids), what="embed(table, ids)",
                                why=AT_WHY)
    checks.assert_close(out, embedded(ids), what=f"embed(table, {ids.tolist()}) with a 4-row table",
                        hint=_embed_went_wrong(out, ids))


def test_embed_gives_zero_rows_for_negative_ids(exercise):
    ids = np.array([-1, 2, -1, 0, -4])
    out = exercise.embed(jnp.asarray(TABLE), jnp.asarray(ids))
    checks.assert_close(out, embedded(ids), what=f"embed(table, {ids.tolist()}) with a 4-row table",
                        hint=_embed_went_wrong(out, ids))


def test_deposit_clamps_into_the_last_cell(exercise):
    out = checks.call_on_device(exercise.deposit, jnp.asarray(GRID), jnp.asarray(CELLS), jnp.asarray(AMOUNTS),
                                what="deposit(grid, cells, amounts)", why=AT_WHY)
    checks.assert_close(out, deposited(), what=f"deposit(grid, {CELLS.tolist()}, amounts) with a 5-cell grid",
                        hint=_deposit_went_wrong(out))


def test_write_window_drops_what_falls_off_the_end(exercise):
    for start in (0, 3, 6, 8):
        out = checks.call_on_device(exercise.write_window, jnp.asarray(BUFFER), start, jnp.asarray(CHUNK),
                                    what="write_window(buffer, start, chunk)", why=AT_WHY)
        checks.assert_close(out, written(start), what=f"write_window(arange(8), {start}, {CHUNK.tolist()})",
                            hint=_window_went_wrong(out, start))


def _jitted(fn, name, *args):
    """Call jax.jit(fn) with traced arguments; a trace-time failure becomes a lesson, not a traceback."""
    try:
        return jax.jit(fn)(*args)
    except TRACE_ERRORS as error:
        if isinstance(error, (IndexError, TypeError)) and "Tracer" not in str(error) \
                and "traced" not in str(error):
            raise
        numpy = isinstance(error, jax.errors.TracerArrayConversionError)
        checks.fail(f"jax.jit({name}) fails ({type(error).__name__}): under jit the index arguments are "
                    f"tracers, with a shape but no value, so "
                    + ("NumPy cannot read them. " if numpy else
                       "Python slicing, min()/if on them, or int() cannot use their values. ")
                    + f"Keep every shape fixed and let the mode= of the `.at[...]` methods decide what happens "
                      f"to indices out of range, inside the program. See {AT_DOCS}",
                    "numpy-on-tracer" if numpy else "traced-value")


def test_all_three_run_under_jit(exercise):
    table, grid, buffer, chunk = (jnp.asarray(a) for a in (TABLE, GRID, BUFFER, CHUNK))
    ids = np.array([3, -1, 9, 0])
    out = _jitted(exercise.embed, "embed", table, jnp.asarray(ids))
    checks.assert_close(out, embedded(ids), what=f"jax.jit(embed)(table, {ids.tolist()})",
                        hint=_embed_went_wrong(out, ids))
    out = _jitted(exercise.deposit, "deposit", grid, jnp.asarray(CELLS), jnp.asarray(AMOUNTS))
    checks.assert_close(out, deposited(), what="jax.jit(deposit)(grid, cells, amounts)",
                        hint=_deposit_went_wrong(out))
    starts = [jnp.int32(s) for s in (2, 6, 8)]
    with checks.count_compiles() as log:
        outs = [_jitted(exercise.write_window, "write_window", buffer, start, chunk) for start in starts]
    for start, out in zip(starts, outs):
        checks.assert_close(out, written(int(start)), what=f"jax.jit(write_window)(buffer, {int(start)}, chunk)",
                            hint=_window_went_wrong(out, int(start)))
    checks.assert_compiles(
        log, what="jax.jit(write_window)", calls="3 calls with different traced starts", expected=1,
        why="a traced start has no Python value: the positions must come from the traced start inside "
            "the program, and the update's mode must handle the ones past the end")
    checks.assert_one_program(
        exercise.write_window, [(buffer, start, chunk) for start in starts], what="write_window",
        calls_text="3 calls with different traced starts", expected=[written(int(s)) for s in starts],
        why="the start reaches the program as a compile-time constant: keep it traced, and let the "
            "update's mode handle the positions past the end")
    # The indexing rules are JAX's, inside the program: not NumPy's, on the host.
    for fn, call, args, want in [
            (exercise.embed, f"embed(table, {ids.tolist()})", (table, jnp.asarray(ids)), embedded(ids)),
            (exercise.deposit, "deposit(grid, cells, amounts)", (grid, jnp.asarray(CELLS), jnp.asarray(AMOUNTS)),
             deposited())]:
        checks.assert_computes(checks.program_of(fn, *args, what=call), want, what=call)
