"""Checks for memory-3 (chunked_map)."""

import jax
import numpy as np

from grader import checks

MAP_DOCS = f"{checks.DOCS}/_autosummary/jax.lax.map.html"
Q, K, D, BATCH = 48, 96, 4, 8  # queries, keys, features, chunk size
# More keys than queries: a loop over chunks of keys runs another number of times than one over queries;
# and Q // BATCH is no size of the data (a loop over 6 chunks of keys holds no (8, 96) slice by chance).
_rs = np.random.RandomState(2)
# Scaled so scores reach several hundred: exp() of them overflows float32 unless shifted.
QUERIES = (10 * _rs.randn(Q, D)).astype(np.float32)
KEYS = (10 * _rs.randn(K, D)).astype(np.float32)
FULL_BYTES = Q * K * 4  # the whole float32 score matrix


def _reference(queries, keys):
    scores = np.asarray(queries, np.float64) @ np.asarray(keys, np.float64).T
    top = scores.max(axis=1)
    return top + np.log(np.exp(scores - top[:, None]).sum(axis=1))



def test_loops_over_chunks_of_batch_size(exercise):
    program = checks.program_of(lambda q, k: exercise.log_normalizers(q, k, BATCH), QUERIES, KEYS,
                                what=f"log_normalizers(queries, keys, {BATCH})")
    checks.assert_computes(program, _reference(QUERIES, KEYS), rtol=1e-5, atol=1e-3,
                           what=f"log_normalizers(queries, keys, {BATCH})")
    biggest = program.largest_value()
    if biggest is not None and biggest.size >= Q * K:
        checks.fail(f"log_normalizers(queries, keys, {BATCH}) with {Q} queries and {K} keys builds a "
                    f"{biggest.str_short()} array at once: the whole batch's scores, as jax.vmap over every "
                    f"query (or one big matmul) does. Process the queries in chunks of batch_size rows so "
                    f"only a ({BATCH}, {K}) slice of the scores exists at a time. See {MAP_DOCS}",
                    "memory-use")
    # Live loops only: a lax.map beside the real work whose result is thrown away (or multiplied by
    # zero) has no result to follow.
    loops = program.live("scan", "while")
    if not loops:
        copies = len(program.live("dot_general"))
        if copies > 1:
            checks.fail(f"log_normalizers(queries, keys, {BATCH}) has no loop in its program but {copies} "
                        f"copies of the scoring matmul: a Python loop over the chunks is unrolled, one copy "
                        f"of the work per chunk, and the program grows with the number of queries. lax.map "
                        f"records the work once and loops at run time. See {MAP_DOCS}", "unrolled")
        checks.fail(f"log_normalizers(queries, keys, {BATCH}) has no loop over the queries in its program. "
                    f"lax.map with batch_size runs a loop over chunks of queries. See {MAP_DOCS}",
                    "wrong-tool")
    lengths = [eqn.params.get("length") for eqn in loops]
    if Q // BATCH not in lengths:
        if K // BATCH in lengths or -(-K // BATCH) in lengths:
            why = (f"The loop runs over chunks of the {K} keys ({K // BATCH} iterations), keeping every "
                   f"query's running sum: the task chunks the {Q} queries, batch_size rows at a time "
                   f"({Q // BATCH} iterations), each chunk scored against all the keys.")
        elif Q in lengths:
            why = (f"The loop runs {Q} times, one query per iteration: lax.map without batch_size. Each "
                   f"iteration should handle {BATCH} queries at once (vectorised), for {Q // BATCH} "
                   f"iterations.")
        else:
            why = (f"Its loops run {lengths} iterations; chunks of {BATCH} of the {Q} queries take "
                   f"{Q // BATCH}. Use the batch_size you are given.")
        checks.fail(checks.sentence(f"log_normalizers(queries, keys, {BATCH}) does not loop over chunks "
                                    f"of batch_size queries.", why, f"See {MAP_DOCS}"), "wrong-tool")
    # Each iteration scores its chunk of queries against every key: a (batch_size, len(keys)) slice of
    # the scores. A loop of as many iterations over chunks of the keys never holds one.
    if not any(_scores_a_chunk(eqn) for eqn in loops if eqn.params.get("length") == Q // BATCH):
        checks.fail(f"log_normalizers(queries, keys, {BATCH}) loops {Q // BATCH} times, but no iteration scores "
                    f"a chunk of {BATCH} queries against all {K} keys (no matmul in the loop's body makes a "
                    f"({BATCH}, {K}) slice of the scores that the step's results are computed from): the loop runs over something else, such as chunks of the keys "
                    f"with every query's running sum carried along. The task chunks the queries, batch_size "
                    f"rows at a time, each chunk against every key. See {MAP_DOCS}", "wrong-tool")


def _scores_a_chunk(loop):
    """Whether the loop's body scores a chunk against the keys: a matmul whose result has a batch_size
    axis and a len(keys) axis, and which the step's results are computed from (an array of that shape
    made beside the work and dropped is no chunk's scores)."""
    body = loop.params.get("jaxpr") or loop.params["body_jaxpr"]
    jaxpr = getattr(body, "jaxpr", body)
    needed = {id(v) for v in jaxpr.outvars}
    for eqn in reversed(jaxpr.eqns):  # the body's equations its results are computed from
        if not any(id(v) in needed for v in eqn.outvars):
            continue
        needed |= {id(v) for v in eqn.invars}
        scores = [e for e in [eqn, *(e for sub in jax.extend.core.jaxprs_in_params(eqn.params)
                                     for e in checks.Program(sub).find("dot_general"))]
                  if e.primitive.name == "dot_general"]
        if any({BATCH, K} <= set(getattr(var.aval, "shape", ())) for e in scores for var in e.outvars):
            return True
    return False


def test_values_and_compiled_memory(exercise):
    compiled = checks.compiled_program(lambda q, k: exercise.log_normalizers(q, k, BATCH), QUERIES, KEYS,
                                       what=f"jax.jit(log_normalizers)(queries, keys, {BATCH})")
    temp = compiled.memory().temp_size_in_bytes
    # Measured in JAX 0.10.2 on CPU: lax.map with batch_size 8 keeps 3.4-6.4 KB of temporaries; the
    # whole batch (vmap, one matmul, a Python loop over chunks) 25-49 KB, against 24.6 KB of scores.
    if temp >= FULL_BYTES // 2:
        checks.fail(f"The compiled log_normalizers(queries, keys, {BATCH}) needs {temp} bytes of "
                    f"temporaries, where the full ({Q}, {K}) float32 score matrix takes {FULL_BYTES}: the "
                    f"program keeps (nearly) every query's scores alive at once. With chunks of {BATCH} "
                    f"queries only a ({BATCH}, {K}) slice is needed at a time. See {MAP_DOCS}", "memory-use")
    got = compiled.executable(QUERIES, KEYS)
    checks.assert_close(got, _reference(QUERIES, KEYS), rtol=1e-5, atol=1e-3,
                        what=f"log_normalizers(queries, keys, {BATCH})",
                        hint="For each query q: logsumexp(keys @ q). Scores here reach several hundred, so "
                             "exp() overflows unless the maximum is subtracted first (jax.nn.logsumexp "
                             "does that).")
