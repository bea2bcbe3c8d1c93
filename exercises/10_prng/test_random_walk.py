"""Checks for prng-4 (random_walk)."""

import jax
import numpy as np

from grader import checks


def _moves(positions):
    positions = np.asarray(positions)
    return np.diff(np.concatenate([[0], positions]))


def test_steps_vary_inside_one_loop(exercise):
    # Reuse checker off here, to show the symptom itself; then the loop must stay one loop.
    moves = _moves(exercise.random_walk(jax.random.key(0), 100))
    if len(np.unique(moves)) < 2:
        checks.fail(f"every one of 100 steps moved by {moves[0]}: the walk is a straight line. "
                    f"The scan body draws with a key it closes over, the same key every step, so "
                    f"it draws the same number every step. Carry the key in the scan state, "
                    f"(position, key): split it each step, draw with one half, pass the other on. "
                    f"See {checks.DOCS}/random-numbers.html", "key-reuse")
    sizes = {n: checks.jaxpr_size(lambda k, n=n: exercise.random_walk(k, n), jax.random.key(0))
             for n in (10, 200)}
    checks.assert_not_unrolled(sizes, what="random_walk(key, n_steps)",
                               hint="Keep the lax.scan; carry the key in it.")
    what = "random_walk(key, 200)"
    program = checks.program_of(lambda k: exercise.random_walk(k, 200), jax.random.key(0), what=what)
    # A walk has many right values, but one per key: the program read is the one the call runs, not
    # one shown only when traced.
    checks.assert_computes(program, exercise.random_walk(jax.random.key(0), 200), what=what)
    checks.assert_uses(program, {"scan"}, what=what, tool="lax.scan",
                       hint="Drawing every move at once and summing them (a cumsum) gives a walk "
                            "without the loop this exercise is about: keep the one lax.scan and "
                            "give each of its steps a key of its own.")
    checks.assert_loop_returns(program, {"scan"}, what=what, tool="lax.scan", steps=(200,),
                               hint="The positions are what the scan's steps stack, each moved from the last.")
    checks.assert_loops_rolled(program, what=what,
                               hint="Keep the scan rolled: unroll= copies the step into the program.")


def test_uses_each_key_once(exercise):
    with checks.no_key_reuse("random_walk(key, 10)"):
        exercise.random_walk(jax.random.key(1), 10)
    what = "random_walk(key, 100)"
    program = checks.program_of(lambda k: exercise.random_walk(k, 100), jax.random.key(1), what=what)
    checks.assert_computes(program, exercise.random_walk(jax.random.key(1), 100), what=what)
    checks.assert_keys_used_once(program, what=what)
    # How each step's key is made, not only how the walk looks: a key folded with the walk's
    # position repeats whenever the position does, and the walk cycles with a fair-looking mean.
    checks.assert_keys_not_from_draws(program, what=what)
    checks.assert_draws(program, 100, what=what, values="100 moves, one fair draw each")


def test_moves_are_fair_plus_or_minus_one(exercise):
    with checks.no_key_reuse("random_walk(key, 1000)"):
        positions = exercise.random_walk(jax.random.key(2), 1000)
    if np.shape(positions) != (1000,) or not np.issubdtype(positions.dtype, np.integer):
        checks.fail(f"random_walk(key, 1000) returned {positions.dtype}{list(np.shape(positions))}; "
                    f"expected an int array of shape (1000,): the position after each step.", "wrong-shape")
    moves = _moves(positions)
    if not set(np.unique(moves)) <= {-1, 1}:
        checks.fail(f"random_walk made moves {sorted(set(np.unique(moves).tolist()))}; each step "
                    f"must move by exactly +1 or -1, chosen by one fair random draw.")
    # A fair walk: the mean move of 1000 is within 0.2 of 0 (6.3 standard errors).
    if abs(moves.mean()) > 0.2:
        checks.fail(f"the mean move over 1000 steps is {moves.mean():.3f}; a fair ±1 walk has mean "
                    f"near 0. Move +1 and -1 with equal probability.")


def test_walk_is_a_function_of_the_key(exercise):
    with checks.no_key_reuse("random_walk(key, 50)"):
        a = np.asarray(exercise.random_walk(jax.random.key(3), 50))
        again = np.asarray(exercise.random_walk(jax.random.key(3), 50))
        b = np.asarray(exercise.random_walk(jax.random.key(4), 50))
    checks.assert_close(again, a, what="random_walk(key(3), 50) called again",
                        hint="An equal key must give the same walk: all randomness comes from the key.")
    if np.array_equal(a, b):
        checks.fail("random_walk gave the same walk for key(3) and key(4): it ignores its key "
                    "argument. Start the scan's carry from the key you are given.")

