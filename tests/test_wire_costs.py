"""What keeps a request cheap must not change what the wall decides: the audit hook's table of
events it ignores, and exported programs re-sent as the bytes they crossed as."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import pytest

from grader.engine.remote import audit
from grader.engine.remote.codec import Decoder, Encoder


def _no_refer(obj, encoder):
    return None


def test_every_event_the_hook_refuses_is_one_it_looks_at():
    refusable = [*audit._ALWAYS, *audit._FROM_SUBMISSION, *audit._FROM_SUBMISSION_DIRECTLY,
                 "import", "open", "object.__getattr__", "object.__setattr__",
                 *(prefix + "anything" for prefix in audit._FROM_SUBMISSION_PREFIXES)]
    assert [event for event in refusable if not audit._is_judged(event)] == []


@pytest.mark.parametrize("event", ["builtins.id", "marshal.loads", "os.listdir", "sys.audit.made.up"])
def test_events_the_hook_skips_are_never_refused(event):
    assert not audit._is_judged(event)
    assert audit._judge(event, (), frozenset()) == ""


def test_an_exported_program_is_sent_again_as_the_bytes_it_came_as(monkeypatch):
    exported = jax.export.export(jax.jit(jnp.sin))(jax.ShapeDtypeStruct((3,), jnp.float32))
    sent = Encoder(_no_refer).dumps(exported)
    received = Decoder.loads(sent, lambda tag, d: None)
    assert isinstance(received, jax.export.Exported)

    def fail(*args, **kwargs):
        raise AssertionError("serialized again: the derivatives would be lowered once more")

    monkeypatch.setattr(jax.export.Exported, "serialize", fail)
    assert Encoder(_no_refer).dumps(received) == sent  # what came across goes back unchanged
    assert Encoder(_no_refer).dumps(exported) == sent  # and the sender's own, once serialized, too
