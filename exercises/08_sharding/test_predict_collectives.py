"""Checks for sharding-8 (predict_collectives): compiled here, on this file's own copy of the programs."""

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, NamedSharding, PartitionSpec as P

from grader import checks

DOCS = f"See {checks.DOCS}/notebooks/Distributed_arrays_and_automatic_parallelization.html"


def rows_of(mesh):
    """x, split by rows over the mesh's 'data' axis."""
    return jax.device_put(np.arange(16 * 8, dtype=np.float32).reshape(16, 8), NamedSharding(mesh, P("data")))


def programs(mesh):
    return {
        "SUM_OVER_ROWS": jax.jit(lambda x: jnp.sum(x, axis=0)),
        "SUM_OVER_COLUMNS": jax.jit(lambda x: jnp.sum(x, axis=1)),
        "ROLL_ROWS": jax.jit(lambda x: jnp.roll(x, 1, axis=0)),
        "SCALE": jax.jit(lambda x: 2 * x),
        "TO_COLUMNS": jax.jit(lambda x: x, out_shardings=NamedSharding(mesh, P(None, "data"))),
        "TO_COPIES": jax.jit(lambda x: x, out_shardings=NamedSharding(mesh, P())),
    }


def compiled_text(name):
    """The HLO of one program (run this after predicting, to see for yourself)."""
    mesh = jax.make_mesh((jax.device_count(),), ("data",), axis_types=(AxisType.Auto,))
    return programs(mesh)[name].lower(rows_of(mesh)).compile().as_text()


# What a device needs from the others, per program.
NEEDS = {
    "SUM_OVER_ROWS": "each device sums the rows it holds into a partial (8,) result, and the partials from all "
                     "devices must be added: an all-reduce",
    "SUM_OVER_COLUMNS": "each row is whole on the device that holds it, so its sum needs no other device",
    "ROLL_ROWS": "shifting by one row moves each block's last row to the next device: a collective-permute "
                 "between neighbours",
    "SCALE": "elementwise work: each device scales its own block",
    "TO_COLUMNS": "re-splitting rows into columns sends a piece of every device's rows to every other device: "
                  "an all-to-all",
    "TO_COPIES": "a whole copy on every device collects every block everywhere: an all-gather",
}


def _collective(counted):
    """The one collective a program uses, None for none, or the set when it uses several."""
    kinds = set(counted)
    return next(iter(kinds)) if len(kinds) == 1 else (None if not kinds else kinds)


def test_the_collective_of_each_program(predictions):
    mesh = jax.make_mesh((jax.device_count(),), ("data",), axis_types=(AxisType.Auto,))
    with checks.judging(predictions) as judge:
        named = programs(mesh)
        guesses = {name: judge.guess(name, what=f"the collective of {name}") for name in named}
        x = rows_of(mesh)
        for name, fn in named.items():
            compiled = fn.lower(x).compile()
            actual = _collective(checks.CompiledProgram(compiled.as_text(), compiled).collectives())
            judge.compare(guesses[name], actual, name=name, form=checks.forms.COLLECTIVE,
                          what=f"the collective in {name}'s compiled HLO",
                          why=f"With x split by rows over {jax.device_count()} devices, {NEEDS[name]}. {DOCS}")
