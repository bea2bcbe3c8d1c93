"""Checks for at-5 (compound_updates)."""

import jax
import jax.extend
import jax.numpy as jnp
import numpy as np

from grader import checks

RNG = np.random.default_rng(25)
IDS = np.array([2, 0, 2, 4, 2, 0], np.int32)  # 2 three times, 0 twice, 1 and 3 never
REPEATS = ("Item 2 is listed three times and item 0 twice: each listing must act again. Gathering "
           "x[ids], computing, and setting the result back acts once per index, however often it "
           "repeats; the scatter forms of the update repeat it.")
AT_DOCS = f"See {checks.DOCS}/_autosummary/jax.numpy.ndarray.at.html"


TRACED_IDS = np.array([3, 1, 3, 3], np.int32)  # 3 three times: a program that updates once shows it


def _one_scatter(name, fn, make, scatter, tool, traced, expected):
    """fn's program, traced on `traced` (with TRACED_IDS), computes `expected` with one scatter (of
    kind `scatter`), and is the same size for 4 or 16 ids."""
    program = checks.program_of(fn, *(jnp.asarray(a) for a in traced), what=name)
    checks.assert_computes(program, expected, what=f"{name}(..., {TRACED_IDS.tolist()}, ...)", rtol=1e-5,
                           hint="Item 3 is listed three times: each listing must act again.")
    checks.assert_uses(program, {scatter}, what=name, tool=tool,
                       hint="One scatter applies the update at every listed index, repeats included.")
    # One scatter touches each listing once: nothing in the program holds a value per position and
    # listing (a one-hot of the ids against the positions, multiplied out densely beside the scatter).
    n, k = len(traced[0]), len(TRACED_IDS)
    biggest = program.largest_value()
    if biggest is not None and biggest.size >= n * k:
        checks.fail(f"{name} builds a {biggest.str_short()} array, one value or more per position ({n}) and "
                    f"listing ({k}): the listings are matched against every position densely (a one-hot "
                    f"of the ids, say), work that grows as positions times listings, beside or instead of "
                    f"the scatter. {tool} applies each listing once, at its index. {AT_DOCS}", "wrong-tool")
    # Nor does it group the listings another way beside it (sorted by id, combined by running products).
    checks.assert_not_uses(program, {"sort", "cumsum", "cumprod", "cummax", "cummin", "cumlogsumexp"}, what=name,
                           why=f"Sorting the listings and combining each id's run (a cumulative product) groups "
                               f"the updates without the scatter, or beside it: {tool} applies every listing "
                               f"at its index in one scatter. {AT_DOCS}")
    if program.loops():
        checks.fail(f"{name} runs a loop over the ids ({program.loops()[0].primitive.name} in its "
                    f"program): one scatter does every update at once, repeated indices included. "
                    f"{AT_DOCS}", "wrong-tool")
    checks.assert_not_unrolled({k: checks.jaxpr_size(fn, *make(k)) for k in (4, 16)}, what=name,
                               hint="A Python loop over the ids traces one update per id; .at[ids] "
                                    "takes them all at once.")


def test_apply_discounts_divides_once_per_listing(exercise):
    prices = RNG.uniform(5.0, 50.0, size=5).astype(np.float32)
    rates = RNG.uniform(1.1, 2.0, size=len(IDS)).astype(np.float32)
    want = prices.copy()
    np.divide.at(want, IDS, rates)
    got = jax.jit(exercise.apply_discounts)(jnp.asarray(prices), jnp.asarray(IDS), jnp.asarray(rates))
    checks.assert_close(got, want, rtol=1e-5, what=f"apply_discounts(prices, {IDS.tolist()}, rates)",
                        hint=REPEATS)
    rates = rates[:len(TRACED_IDS)]
    want = prices.copy()
    np.divide.at(want, TRACED_IDS, rates)
    _one_scatter("apply_discounts", exercise.apply_discounts,
                 lambda k: (jnp.ones(5), jnp.zeros(k, jnp.int32), jnp.ones(k)), "scatter-mul",
                 ".at[...].divide", (prices, TRACED_IDS, rates), want)


def test_discounts_of_integer_prices_come_back_as_floats(exercise):
    # The lesson's detail: .at[].divide is true division, so int prices come back as floats.
    prices = np.array([10, 25, 30, 45, 50], np.int32)
    rates = np.array([4, 2, 3, 2, 7, 5], np.int32)
    want = prices.astype(np.float64)
    np.divide.at(want, IDS, rates)
    got = exercise.apply_discounts(jnp.asarray(prices), jnp.asarray(IDS), jnp.asarray(rates))
    what = f"apply_discounts(int32 prices, {IDS.tolist()}, int32 rates)"
    dtype = np.dtype(getattr(got, "dtype", type(got)))
    if not np.issubdtype(dtype, np.floating):
        checks.fail(f"{what} returned {dtype.name}; expected floats: dividing is true division, and "
                    f"an int array divided comes back as floats. An update that keeps the int dtype (a "
                    f"multiply by 1 / rate, say) truncates each quotient. See "
                    f"{checks.DOCS}/_autosummary/jax.numpy.ndarray.at.html", "precision")
    checks.assert_close(got, want, rtol=1e-5, what=what, hint=REPEATS)


def test_sharpen_raises_once_per_listing(exercise):
    probs = RNG.uniform(0.2, 0.9, size=5).astype(np.float32)
    exponents = RNG.uniform(1.2, 2.5, size=len(IDS)).astype(np.float32)
    want = probs.astype(np.float64)
    np.power.at(want, IDS, exponents.astype(np.float64))
    got = jax.jit(exercise.sharpen)(jnp.asarray(probs), jnp.asarray(IDS), jnp.asarray(exponents))
    checks.assert_close(got, want.astype(np.float32), rtol=1e-4, atol=1e-7,
                        what=f"sharpen(probs, {IDS.tolist()}, exponents)", hint=REPEATS)
    exponents = exponents[:len(TRACED_IDS)]
    want = probs.astype(np.float64)
    np.power.at(want, TRACED_IDS, exponents.astype(np.float64))
    _one_scatter("sharpen", exercise.sharpen,
                 lambda k: (jnp.ones(5), jnp.zeros(k, jnp.int32), jnp.ones(k)), "scatter-mul",
                 ".at[...].power", (probs, TRACED_IDS, exponents), want)


def test_transform_applies_fn_once_per_listing(exercise):
    values = RNG.uniform(1.0, 9.0, size=5).astype(np.float32)
    cases = [(jnp.sqrt, np.sqrt, "jnp.sqrt"), (lambda v: 0.5 * v + 1.0, lambda v: 0.5 * v + 1.0, "0.5 * v + 1"),
             (jnp.log1p, np.log1p, "jnp.log1p")]
    for fn, np_fn, name in cases:
        want = values.astype(np.float64)
        for i in IDS:
            want[i] = np_fn(want[i])
        got = jax.jit(exercise.transform, static_argnums=2)(jnp.asarray(values), jnp.asarray(IDS), fn)
        checks.assert_close(got, want.astype(np.float32), rtol=1e-5,
                            what=f"transform(values, {IDS.tolist()}, {name})",
                            hint=REPEATS + " Apply the fn you are given, whatever it is.")
    want = values.astype(np.float64)
    for i in TRACED_IDS:
        want[i] = np.sin(want[i])
    _one_scatter("transform", lambda values, ids: exercise.transform(values, ids, jnp.sin),
                 lambda k: (jnp.ones(5), jnp.zeros(k, jnp.int32)), "scatter", ".at[...].apply",
                 (values, TRACED_IDS), want)
    _assert_fn_inside_the_scatter(exercise, values)


def _assert_fn_inside_the_scatter(exercise, values):
    """fn is the scatter's own update: applied by the scatter at each listing, never to whole arrays
    beside it (a fixed number of rounds of fn under a mask holds only as many repeats as rounds)."""
    program = checks.program_of(lambda v, ids: exercise.transform(v, ids, jnp.sin), jnp.asarray(values),
                                jnp.asarray(TRACED_IDS), what="transform")
    inside = sum(checks.Program(jax.extend.core.ClosedJaxpr(eqn.params["update_jaxpr"], ())).primitives().count("sin")
                 for eqn in program.live("scatter") if eqn.params.get("update_jaxpr") is not None)
    outside = program.primitives().count("sin") - inside
    if not inside or outside:
        where = "applies fn (jnp.sin here) outside any scatter" if outside else "never applies fn in a scatter"
        checks.fail(f"transform(values, ids, jnp.sin) {where}: its program computes fn on whole arrays "
                    f"and picks results with masks or counts, so an index gets only as many applications "
                    f"as the program has rounds, not one per listing. .at[ids].apply(fn) makes fn the "
                    f"scatter's own update, applied at each listed index as often as it is listed. "
                    f"{AT_DOCS}", "wrong-tool")


def test_traced_ids_under_jit_compile_once(exercise):
    prices = jnp.asarray(RNG.uniform(5.0, 50.0, size=5).astype(np.float32))
    rates = jnp.asarray(RNG.uniform(1.1, 2.0, size=4).astype(np.float32))
    id_sets = [np.array(ids, np.int32) for ids in ([1, 1, 3, 0], [4, 4, 4, 4], [0, 2, 2, 1])]
    discounts = jax.jit(exercise.apply_discounts)
    first_ids = jnp.asarray(id_sets[0])
    with checks.count_compiles() as first:
        discounts(prices, first_ids, rates)
    traced = [jnp.asarray(ids) for ids in id_sets[1:]]
    with checks.count_compiles() as log:
        outs = [discounts(prices, ids, rates) for ids in traced]
    checks.assert_compiles(log, what="jax.jit(apply_discounts)", calls="2 calls with new ids, same shapes",
                           expected=0, warm_up=first,
                           why="the ids reach the program as constants: keep them traced arrays and "
                               "let the scatter take them all at once")
    for ids, out in zip(id_sets[1:], outs):
        want = np.asarray(prices).copy()
        np.divide.at(want, ids, np.asarray(rates))
        checks.assert_close(out, want, rtol=1e-5, what=f"jax.jit(apply_discounts)(prices, {ids.tolist()}, rates)",
                            hint="An id listed several times is divided once per listing, by each of "
                                 "its rates.")
