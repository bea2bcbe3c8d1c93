"""Hidden checks for explicit-2 (sharding_in_types): layouts the visible checks do not show."""

import jax
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

from grader import checks


def test_block_shapes_of_unseen_layouts(exercise):
    n = jax.device_count()
    mesh = jax.make_mesh((2, n // 2), ("rows", "cols"))
    cases = [((6, n, 4), P(None, ("rows", "cols")), (6, 1, 4)),  # one dimension over both axes
             ((4, 5), P(), (4, 5)),                                # copies everywhere
             ((2, n), P("rows", "cols"), (1, 2))]
    for shape, spec, want in cases:
        x = jax.device_put(np.zeros(shape, np.float32), NamedSharding(mesh, spec))
        seen = []
        jax.jit(lambda v: seen.append(exercise.local_shape(v)) or v)(x)
        for where, got in (("", exercise.local_shape(x)), (" inside jax.jit", seen[0])):
            if tuple(got) != want:
                checks.fail(f"local_shape(x: {jax.typeof(x)}){where} returned {tuple(got)}; expected {want}. "
                            f"Read the block shape from the type's sharding, for any shape and mesh.")
