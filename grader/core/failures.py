"""Why a check failed: the failure type, its codes and the sentence helper.

Plain Python, so every layer (the runtime that loads an exercise, the checks,
the grader that reports codes) can raise and read failures without JAX.
"""

from __future__ import annotations

from typing import Any

DOCS = "https://docs.jax.dev/en/latest"

# Every teaching failure carries one of these short codes, so a class report can
# group failures by the JAX idea they reveal. Keep codes stable: results files and
# gradebooks store them. code -> what the learner's answer got wrong, as a phrase.
FAILURE_CODES = {
    "wrong-values": "returns wrong values",
    "wrong-shape": "returns the wrong shape or dtype",
    "recompiles": "recompiles when it should not",
    "not-jitted": "is not compiled with jax.jit",
    "mutates-input": "changes its input in place",
    "stale-global": "bakes in a global at trace time",
    "keeps-state": "keeps results between calls, so what it returns depends on more than its arguments",
    "trace-time-effect": "runs a side effect only while tracing",
    "not-distributed": "does not run the work on the devices",
    "wrong-sharding": "leaves the result on the wrong devices or sharding",
    "wrong-collective": "communicates between devices the wrong way",
    "host-transfer": "moves data through the host",
    "key-reuse": "reuses a PRNG key",
    "not-independent": "copies one random draw where independent draws are needed",
    "untyped-key": "hands over raw uint32 key data where a typed key is needed",
    "not-donated": "does not donate the buffers",
    "unrolled": "unrolls a loop into the program",
    "wrong-tool": "does not use the JAX tool the task names",
    "device-count": "assumes a fixed number of devices",
    "multi-process": "does not coordinate the processes",
    "silent-error": "lets a runtime error (an out-of-bounds index, a NaN, a failed check) pass silently",
    "not-portable": "exports for fewer input shapes or platforms than asked",
    "traced-value": "uses a traced value where Python needs a concrete one",
    "numpy-on-tracer": "hands a traced value to NumPy",
    "leaked-tracer": "leaks a tracer out of a transformation",
    "not-pytree": "hands JAX an object that is not an array or a registered pytree of arrays",
    "global-setting": "leaves a global JAX setting changed",
    "not-traced": "runs the function on values instead of tracing it",
    "program-differs": "traces a program that computes other values than the task asks for",
    "repeated-work": "traces the same computation more than once",
    "bad-timing": "times something other than the finished work (queueing, compiling, nothing)",
    "static-argument": "marks the wrong arguments static",
    "precision": "loses precision or uses the wrong dtype",
    "memory-use": "keeps the wrong intermediates in memory (too many, or not the ones asked for)",
    "wrong-prediction": "predicts wrongly what JAX will do",
    "computed-prediction": "computes a prediction by running code instead of writing it down",
    "todo": "is not attempted yet (still a TODO)",
    "untouched": "is not attempted (the file is still the original stub)",
    "missing": "is missing a file or a function",
    "syntax-error": "does not parse",
    "import-error": "fails while being imported",
    "error": "raises an error",
    "timeout": "runs too long (an endless loop?)",
    "memory-limit": "uses too much memory",
    "crash": "crashes the check process",
    "refused": "does something an exercise never needs (refused by the grader: needs review)",
    "not-run": "was not run (an earlier check of the exercise failed hard)",
}


class KataFailure(AssertionError):
    """A check failed for a reason the message explains in JAX terms.

    `code` is one of FAILURE_CODES: what kind of mistake this is. The plugin
    shows only the message (no traceback into the helpers): the message is
    written for the learner.
    """

    def __init__(self, message: str, code: str = "wrong-values", picture: Any = None) -> None:
        if code not in FAILURE_CODES:
            raise ValueError(f"unknown failure code {code!r}: add it to FAILURE_CODES")
        # The picture (grader.checks.layout.Picture) is drawn under the message; the message's first
        # line stays the failure's one-line reason.
        super().__init__(message if picture is None else f"{message}\n\n{picture.text()}")
        self.code = code
        self.message = message
        self.picture = picture


def fail(message: str, code: str = "wrong-values", picture: Any = None) -> None:
    """Fail the current check with a teaching message and the kind of mistake (a FAILURE_CODES key);
    `picture`: where the data lives, expected beside actual (grader.checks.layout.picture)."""
    __tracebackhide__ = True
    raise KataFailure(message, code, picture)


def sentence(*parts: str) -> str:
    """Join message parts with single spaces, skipping empty ones (hints are often empty)."""
    return " ".join(part.strip() for part in parts if part and part.strip())
