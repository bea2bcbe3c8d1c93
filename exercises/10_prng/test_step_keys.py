"""Checks for prng-3 (step_keys)."""

import jax
import jax.numpy as jnp
import numpy as np

from grader import checks

SIZE = 4


def test_same_step_gives_same_noise_from_one_base_key(exercise):
    base = jax.random.key(0)  # one key object for every call, as in a training loop
    with checks.no_key_reuse("noise_for_step(base_key, step) called for several steps"):
        first = [np.asarray(exercise.noise_for_step(base, step)) for step in (0, 1, 2, 3)]
        again = np.asarray(exercise.noise_for_step(base, 2))
    # The program too: raw bits taken with jax.random.key_data escape the run-time checker.
    what = "noise_for_step(base_key, step)"
    program = checks.program_of(exercise.noise_for_step, jax.random.key(0), jnp.int32(2), what=what)
    checks.assert_keys_used_once(program, what=what, keep=(0,))
    checks.assert_shape_dtype(first[0], (SIZE,), np.float32, what="noise_for_step(base_key, 0)")
    checks.assert_close(again, first[2], what="noise_for_step(base_key, 2) called again",
                        hint="The noise for a step must be a function of (base key, step) only.")


def test_steps_get_different_noise(exercise):
    base = jax.random.key(1)
    rows = np.stack([np.asarray(exercise.noise_for_step(base, step)) for step in range(5)])
    if len(np.unique(rows, axis=0)) != len(rows):
        checks.fail(f"noise_for_step gave equal noise for different steps:\n{rows}\nThe step never "
                    f"reaches the key: derive each step's key from the base key and the step number, "
                    f"so every step draws with its own key. See {checks.DOCS}/random-numbers.html")


# Numbers that a table of keys, or a modulus, would map onto one key; the last is the largest int32.
FAR = (0, 999, 1000, 4096, 65_536, 1_000_000, 2**31 - 1)


def _repeated_key_hint(program) -> str:
    if program.has("random_split"):
        return ("Keys split from the base key and looked up by number run out at the table's end: "
                "JAX clips an index past the end to the last row, so every larger number gets the "
                "last row's key.")
    return "The number does not reach the key whole: something maps two numbers to one key."


def test_far_steps_and_ids_get_their_own_noise(exercise):
    # The key for step 1234 (or any int32 step) is rebuilt from the base key and the number alone.
    base, far = jax.random.key(6), jnp.array(FAR, dtype=jnp.int32)
    by_step = np.stack([np.asarray(exercise.noise_for_step(base, n)) for n in far])
    by_id = np.asarray(exercise.noise_for_examples(base, far))
    for name, rows, fn, number in (("noise_for_step", by_step, exercise.noise_for_step, far[-1]),
                                   ("noise_for_examples", by_id, exercise.noise_for_examples, far)):
        twins = [(j, i) for i in range(len(FAR)) for j in range(i) if np.array_equal(rows[i], rows[j])]
        if twins:
            j, i = twins[0]
            program = checks.program_of(fn, jax.random.key(6), number, what=name)
            checks.fail(f"{name} gave equal noise to {FAR[j]} and {FAR[i]}: two numbers drew with "
                        f"one key. {_repeated_key_hint(program)} jax.random.fold_in(base_key, n) gives "
                        f"every int32 n a key of its own, with no table. "
                        f"See {checks.DOCS}/_autosummary/jax.random.fold_in.html", "key-reuse")


def test_noise_depends_on_the_base_key(exercise):
    a = np.asarray(exercise.noise_for_step(jax.random.key(2), 5))
    b = np.asarray(exercise.noise_for_step(jax.random.key(3), 5))
    if np.allclose(a, b):
        checks.fail("noise_for_step gave the same noise for step 5 under two different base keys: "
                    "the key is built from the step alone (e.g. jax.random.key(step)). Derive it "
                    "from the base key so separate runs (seeds) get separate noise.")


def test_works_with_a_traced_step_under_jit(exercise):
    steps = [jnp.int32(s) for s in (0, 7, 8)]
    jitted = jax.jit(exercise.noise_for_step)
    for step in steps:
        eager = np.asarray(exercise.noise_for_step(jax.random.key(4), int(step)))
        checks.assert_close(jitted(jax.random.key(4), step), eager,
                            what=f"jax.jit(noise_for_step)(base_key, step={int(step)})",
                            hint="Under jit the step is a tracer with no Python value: "
                                 "jax.random.fold_in accepts it directly; int(step) or "
                                 "split(key, step) do not.")


def test_example_noise_follows_the_id_not_the_position(exercise):
    base = jax.random.key(5)
    ids = jnp.array([3, 7, 1, 12], dtype=jnp.int32)
    shuffled = jnp.array([12, 1, 3, 7], dtype=jnp.int32)
    with checks.no_key_reuse("noise_for_examples(base_key, ids) called twice"):
        rows = np.asarray(exercise.noise_for_examples(base, ids))
        rows_shuffled = np.asarray(exercise.noise_for_examples(base, shuffled))
    what = "noise_for_examples(base_key, ids)"
    program = checks.program_of(exercise.noise_for_examples, jax.random.key(5), ids, what=what)
    checks.assert_keys_used_once(program, what=what, keep=(0,))
    checks.assert_shape_dtype(rows, (4, SIZE), np.float32, what="noise_for_examples(base_key, 4 ids)")
    if len(np.unique(rows, axis=0)) != len(rows):
        checks.fail(f"noise_for_examples gave equal rows to different examples:\n{rows}\n"
                    f"Each example needs a key of its own, derived from the base key and its id.")
    hint = ("Each example's row must depend on its id, not on where it sits in the batch: derive "
            "each example's key from the base key and the example's id.")
    if np.allclose(rows_shuffled, rows):  # the same rows, position by position
        program = checks.program_of(exercise.noise_for_examples, jax.random.key(5), ids,
                                    what="noise_for_examples(base_key, ids)")
        if program.has("random_split"):
            hint = ("Splitting the key into one key per batch position ties each row to a position: "
                    "shuffle the batch and every example gets another example's noise. Split keys are "
                    "numbered by position; fold each example's id into the base key instead, so the "
                    "key follows the example.")
        else:
            hint = ("Row i comes out the same whatever id sits at position i: the keys are derived "
                    "from the positions (0, 1, 2, ...), not from the ids. Fold each example's id "
                    "into the base key.")
    checks.assert_close(rows_shuffled, rows[[3, 2, 0, 1]],
                        what="noise_for_examples(base_key, the same ids shuffled)", hint=hint)
