"""Checks for export-3 (even_rows)."""

import jax
import jax.numpy as jnp
import numpy as np

from grader import checks

SHAPE_POLY = f"{checks.DOCS}/export/shape_poly.html"


def pair_rows(x):
    """The exercise's pair_rows (the same code), swapped in through the witness (checks.Watch), which
    records each time its body runs where the exercise cannot reach."""
    return x.reshape(-1, 2 * x.shape[1])


def _export(exercise, features):
    f = checks.Watch(pair_rows)
    with checks.swap_function(exercise, "pair_rows", f.f):
        try:
            exported = exercise.export_pairs(features)
        except Exception as error:
            if type(error).__name__ != "InconclusiveDimensionOperation":
                raise
            checks.fail(f"export_pairs({features}) failed: {str(error).strip().splitlines()[0][:160]} "
                        f"(InconclusiveDimensionOperation). pair_rows' reshape only works for an even "
                        f"number of rows, and nothing in the exported input shape tells JAX the rows are "
                        f"even, so it cannot prove the reshape for every row count. State the evenness: "
                        f"write the rows as twice a variable, in the symbolic dimension itself ('2*k'), "
                        f"or define the row variable by an equality with that variable alone on the "
                        f"left: 'b == 2*k'. JAX rewrites b only from that form: given '2*k == b', "
                        f"'mod(b, 2) == 0' or an inequality such as 'b >= 2' it still cannot prove the "
                        f"division. See {SHAPE_POLY}", "traced-value")
    if not isinstance(exported, jax.export.Exported):
        checks.fail(f"export_pairs({features}) returned {type(exported).__name__}, not one "
                    f"jax.export.Exported. See {SHAPE_POLY}", "not-portable")
    if not f.runs():
        checks.fail(f"export_pairs({features}) did not export pair_rows (the checks' pair_rows was never "
                    f"traced): export the module's pair_rows, as it is.", "wrong-tool")
    (aval,) = exported.in_avals
    rows, width = aval.shape
    if not jax.export.is_symbolic_dim(rows):
        checks.fail(f"export_pairs({features}) exported for inputs of type {aval.str_short()}: the number "
                    f"of rows is fixed in the artefact, which refuses every other even row count. Keep "
                    f"it symbolic and state what you know about it instead. See {SHAPE_POLY}",
                    "not-portable")
    if width != features or aval.dtype != jnp.float32:
        checks.fail(f"export_pairs({features}) exported for inputs of type {aval.str_short()}; expected "
                    f"float32 with {features} columns, the argument.", "wrong-shape")
    exported_shape = tuple(d if isinstance(d, int) else str(d) for d in aval.shape)
    on_it = [run for run in f.runs() if run.traced and run.shapes[:1] == (exported_shape,)]
    if on_it and not any(run.returned for run in on_it):
        checks.fail(f"export_pairs({features}) exported a program for inputs of shape {exported_shape}, but "
                    f"pair_rows, traced on that input, raised and was never finished: the artefact is some "
                    f"other function, with pair_rows' error caught beside it. Export pair_rows itself, as it "
                    f"is, on a symbolic input that says the rows are even. See {SHAPE_POLY}", "wrong-tool")
    if not on_it:
        seen = sorted({str(run.shapes[0]) for run in f.runs() if run.shapes}) or ["no array"]
        checks.fail(f"export_pairs({features}) exported a program for inputs of shape {exported_shape}, but "
                    f"pair_rows was never traced on that input (it was traced on {', '.join(seen)}): the "
                    f"artefact is some other function, with pair_rows beside it. Export pair_rows itself, "
                    f"as it is, on the symbolic input. See {SHAPE_POLY}", "wrong-tool")
    # The artefact must be pair_rows' own program for that input: what jax.export lowers for it here.
    mine = jax.export.export(jax.jit(pair_rows))(jax.ShapeDtypeStruct(aval.shape, aval.dtype))
    if checks.exported_text(mine) != checks.exported_text(exported):
        checks.fail(f"export_pairs({features}) exported a program for inputs of shape {exported_shape} that "
                    f"is not pair_rows' on that input (jax.export lowers pair_rows to another program): the "
                    f"artefact is some other function, with pair_rows traced beside it. Export pair_rows "
                    f"itself, as it is. See {SHAPE_POLY}", "wrong-tool")
    return exported, f


def test_exports_one_artefact_for_every_even_row_count(exercise):
    exported, f = _export(exercise, 3)
    rng = np.random.default_rng(0)
    for n in (2, 6):
        x = rng.normal(size=(n, 3)).astype(np.float32)
        checks.assert_close(exported.call(jnp.asarray(x)), x.reshape(n // 2, 6),
                            what=f"export_pairs(3).call(x) for {n} rows")
    traces = len(f.runs())
    if traces != 1:
        checks.fail(f"pair_rows was traced {traces} times for one export and calls with 2 and 6 rows; "
                    f"expected once: one artefact serves every even row count.", "not-portable")
    _export(exercise, 2)  # the columns come from the argument


def test_refuses_an_odd_number_of_rows(exercise):
    exported, _ = _export(exercise, 3)
    x = np.arange(15, dtype=np.float32).reshape(5, 3)
    try:
        out = exported.call(jnp.asarray(x))
    except ValueError:
        return  # the artefact's shape check refused 5 rows: right
    rows = exported.in_avals[0].shape[0]
    checks.fail(f"the artefact exported for rows {rows} accepted 5 rows and returned shape {np.shape(out)}: "
                f"5 rows cannot be paired, so whatever came back dropped or invented data. Declared in "
                f"the symbolic shape, 'an even number of rows' is checked on every call and an odd "
                f"count is refused. See {SHAPE_POLY}", "wrong-shape")
