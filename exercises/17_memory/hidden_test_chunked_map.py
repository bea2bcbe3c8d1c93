"""Hidden checks for memory-3 (chunked_map): batch sizes the visible checks never use, with a remainder."""

import jax
import numpy as np

from grader import checks

Q, K, D = 13, 24, 3  # loops over chunks of keys run another number of times than over queries
_rs = np.random.RandomState(7)
QUERIES = (3 * _rs.randn(Q, D)).astype(np.float32)
KEYS = (3 * _rs.randn(K, D)).astype(np.float32)


def test_chunks_follow_batch_size(exercise):
    scores = QUERIES.astype(np.float64) @ KEYS.astype(np.float64).T
    want = np.log(np.exp(scores).sum(axis=1))
    for batch in (5, 3):
        program = checks.program_of(lambda q, k: exercise.log_normalizers(q, k, batch), QUERIES, KEYS,
                                    what=f"log_normalizers(queries, keys, {batch})")
        checks.assert_computes(program, want, rtol=1e-5, atol=1e-4, what=f"log_normalizers(queries, keys, {batch})")
        lengths = [eqn.params.get("length") for eqn in program.live("scan", "while")]
        # Whole chunks with the rest after the loop, or the queries padded to a last whole chunk.
        if Q // batch not in lengths and -(-Q // batch) not in lengths:
            loops = f"loops {lengths} times" if lengths else "has no loop"
            checks.fail(f"log_normalizers(queries, keys, {batch}) with {Q} queries {loops}; chunks of "
                        f"{batch} query rows take {Q // batch} iterations (and a remainder of "
                        f"{Q % batch}), or {-(-Q // batch)} with the last chunk padded. "
                        f"The chunk size must be the batch_size argument, whatever it is.", "wrong-tool")
    got = jax.jit(lambda q, k: exercise.log_normalizers(q, k, 5))(QUERIES, KEYS)
    checks.assert_close(got, want, rtol=1e-5, atol=1e-4, what="log_normalizers(queries, keys, 5), 13 queries",
                        hint="Queries that do not fill a last chunk still need their values.")
