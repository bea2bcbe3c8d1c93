"""PRNG keys: each key feeds one draw."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

import jax

from grader.checks.core import DOCS, KataFailure


@contextlib.contextmanager
def no_key_reuse(what: str) -> Iterator[None]:
    """Run the block with JAX's key-reuse checker on; a reuse fails with a lesson.

    Only typed keys (`jax.random.key`) are tracked; legacy `PRNGKey` arrays are not.
    """
    from jax.errors import KeyReuseError

    with jax.debug_key_reuse(True):
        try:
            yield
        except KeyReuseError as error:
            first = str(error).splitlines()[0]
            raise KataFailure(
                f"{what} used the same PRNG key twice ({first}). A key is consumed by one draw: "
                f"every draw needs a key of its own, derived from the one you were given. "
                f"See {DOCS}/random-numbers.html", "key-reuse") from error
