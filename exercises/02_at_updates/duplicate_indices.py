"""Repeated indices: a scatter-add counts every copy, a gather-then-set does not.

`x.at[idx].add(v)` is a scatter-add: every entry of `idx` adds its value to
its slot, so an index that appears three times adds three times, all in one
vectorised operation. Reading first and writing back,
`x.at[idx].set(x[idx] + v)`, reads every slot *before* any write: all copies
of a repeated index write the same value and collapse into a single update.
(NumPy's `x[idx] += v` collapses the same way; `np.add.at` does not.) A Python
loop with one update per label gets the counts right but is unrolled into the
traced program, one update per element.
Docs: https://docs.jax.dev/en/latest/_autosummary/jax.numpy.ndarray.at.html

Task (fix-it): `class_counts(labels)` should count how often each class
0..NUM_CLASSES-1 occurs in `labels`, like `np.bincount(labels,
minlength=NUM_CLASSES)`, as int32 counts. The code below counts a repeated
class only once.
Fix it so every occurrence counts, keeping it jitted: one compile for any
labels of the same shape, and no loop over the labels (in Python or in lax):
one update over the whole array.
"""

import jax
import jax.numpy as jnp

NUM_CLASSES = 6


@jax.jit
def class_counts(labels: jnp.ndarray) -> jnp.ndarray:
    counts = jnp.zeros(NUM_CLASSES, dtype=jnp.int32)
    return counts.at[labels].set(counts[labels] + 1)
