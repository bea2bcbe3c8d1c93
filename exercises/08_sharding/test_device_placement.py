"""Checks for sharding-1 (device_placement)."""

import re

import jax
import numpy as np
import pytest

from grader import checks

X = np.arange(6, dtype=np.int32).reshape(2, 3)
PLACEMENT_DOCS = f"{checks.DOCS}/sharded-computation.html"


def test_put_on_lands_on_the_requested_device(exercise):
    devices = jax.devices()
    n = len(devices)
    for index in sorted({n - 1, n // 2, min(1, n - 1)}):
        out = exercise.put_on(X, index)
        checks.assert_on_devices(
            out, {devices[index]}, what=f"put_on(x, {index})",
            hint="jnp.asarray(x) lands on the default device (device 0); jax.device_put takes the device "
                 "to put x on.")
        checks.assert_shape_dtype(out, X.shape, X.dtype, what=f"put_on(x, {index})")
        checks.assert_close(out, X, what=f"put_on(x, {index})")
        if not out.committed:
            checks.fail(f"put_on(x, {index}) returned an array that sits on device {index} but is not "
                        f"committed to it (made under jax.default_device, say): JAX may move an "
                        f"uncommitted array to wherever its next operation's committed inputs are, so it "
                        f"is not kept there. jax.device_put(x, device) commits x to the device. "
                        f"See {PLACEMENT_DOCS}", "wrong-sharding")


def pair(first: int, second: int) -> tuple[jax.Array, jax.Array]:
    devices = jax.devices()
    a = jax.device_put(np.array([1.0, 2.0, 3.0], np.float32), devices[first])
    b = jax.device_put(np.array([10.0, 20.0, 30.0], np.float32), devices[second])
    return a, b


def _blocked_transfer(call, guard):
    """Run call() with one kind of transfer disallowed, explicit and implicit; the first transfer it
    tried, or None.

    Returns (kind, shape as "2,3", source device id or None, destination device id) from JAX's error.
    """
    try:
        with guard("disallow_explicit"):
            jax.block_until_ready(call())
    except Exception as error:  # noqa: BLE001 - JAX reports a blocked transfer as a runtime error
        found = re.search(r"Disallowed (\S+) transfer: aval=ShapedArray\((\w+)\[([0-9,]*)\]"
                          r"(?:.*?\bsharding=.*?id=(\d+))?.*?dst_sharding=.*?id=(\d+)", str(error))
        if found is None:
            raise
        kind, _, shape, source, destination = found.groups()
        return kind, shape, None if source is None else int(source), int(destination)
    return None


def added_where_a_lives(exercise):
    """The sum is right, on a's device, computed there: only b moves (module level: rerun with 4
    devices)."""
    n = jax.device_count()
    for first, second in [(min(2, n - 1), n - 1), (n - 1, 0)]:
        a, b = pair(first, second)
        what = f"add_on_first(a on device {first}, b on device {second})"
        try:
            out = exercise.add_on_first(a, b)
        except ValueError as error:
            if "incompatible devices" not in str(error) and "committed" not in str(error):
                raise
            checks.fail(
                f"{what} raised ValueError: {str(error).splitlines()[0][:160]}. Arrays committed to "
                f"different devices are never moved implicitly: one of them has to be moved explicitly "
                f"(device_put) to the other's device first. See {PLACEMENT_DOCS}", "wrong-sharding")
        checks.assert_close(out, np.array([11.0, 22.0, 33.0], np.float32), what=what)
        checks.assert_on_devices(
            out, {jax.devices()[first]}, what=what,
            hint="The result of an operation stays where its inputs are: move b to a's device, "
                 "not a to b's.")
        # Placement is not proof: a sum computed elsewhere and moved back lands there too. JAX's
        # transfer guards name the first copy the function makes; a (2, 3) and b (3,) tell a move of
        # a (or of the sum) from a move of b.
        devices = jax.devices()
        a = jax.device_put(np.arange(6, dtype=np.float32).reshape(2, 3), devices[first])
        b = jax.device_put(np.array([10.0, 20.0, 30.0], np.float32), devices[second])
        what = f"add_on_first(a of shape (2, 3) on device {first}, b of shape (3,) on device {second})"
        # Both inputs already live on devices: nothing needs to come from the host, explicitly
        # (device_put of a NumPy array) or implicitly (a NumPy array or number mixed into jnp work).
        host = _blocked_transfer(lambda: exercise.add_on_first(a, b), jax.transfer_guard_host_to_device)
        if host is not None and host[1] == "2,3":
            checks.fail(f"{what} sends a whole shape-(2, 3) array from the host to device {host[3]}: the sum "
                        f"was computed on the host (NumPy) and only its result placed on a's device. The "
                        f"add itself should run on a's device, with jax.Arrays. See {PLACEMENT_DOCS}",
                        "host-transfer")
        if host is not None and host[1] == "3":
            checks.fail(f"{what} sends b (shape (3,)) from the host to device {host[3]}: b was copied "
                        f"into host memory (NumPy) and back out again, a round trip through the host, "
                        f"instead of moving from its device straight to a's. Both inputs are already "
                        f"jax.Arrays on devices: move b between devices explicitly, then add. "
                        f"See {PLACEMENT_DOCS}", "host-transfer")
        if host is not None:
            checks.fail(f"{what} sends a value of shape ({host[1]}) from the host to device {host[3]}: "
                        f"host data (a NumPy result or a Python number) is mixed into the work, a sign "
                        f"that the add is done on the host and only dressed up as a jax.Array. With a and "
                        f"b already on devices, the add needs nothing from the host. See {PLACEMENT_DOCS}",
                        "host-transfer")
        moved = _blocked_transfer(lambda: exercise.add_on_first(a, b), jax.transfer_guard_device_to_device)
        if moved is not None and moved[1] != "3":
            shape = moved[1].replace(",", ", ")
            checks.fail(f"{what} first copies a shape-({shape}) array to device {moved[3]}: a (or the sum), "
                        f"not b, was moved, so the add ran away from a's device and its result was copied "
                        f"back afterwards. Placement of the result does not say where the work ran: move b "
                        f"to a's device and add there. See {PLACEMENT_DOCS}", "wrong-sharding")
        # A device-to-host read is no transfer the guards above see on every platform (on CPU the host
        # is the device): watched where the exercise runs.
        with checks.host_reads() as reads:
            jax.block_until_ready(exercise.add_on_first(a, b))
        if reads:
            checks.fail(f"{what} reads {', '.join(reads[:3])} back to the host: b's values went through host "
                        f"memory (NumPy, Python numbers) on their way to a's device, a round trip, however "
                        f"they came back (a constant of a program, numbers written into it). Both inputs are "
                        f"jax.Arrays on devices: move b between devices explicitly, then add. "
                        f"See {PLACEMENT_DOCS}", "host-transfer")
        # A guard stops at the first copy (a decoy copy of b hides the copies after it) and code can
        # set its own guard; the call's program lists every copy it makes, whatever the guards.
        program = checks.program_of(lambda: exercise.add_on_first(a, b), what=what)
        # The copies read below belong to the program that computes the sum, not to one shown only
        # when traced.
        checks.assert_computes(program, np.asarray(a) + np.asarray(b), what=what)
        if program.host_constants():
            checks.fail(f"{what} computes with data from the host: its program holds NumPy values of shape "
                        f"{program.host_constants()[0]} (a or b copied to host memory, or the sum computed "
                        f"there), however it silenced the transfer guard. With a and b already on devices, "
                        f"the add needs nothing from the host. See {PLACEMENT_DOCS}", "host-transfer")
        for shape, _, target in program.transfers():
            if shape != (3,) or target != {first}:
                where = ", ".join(str(d) for d in sorted(target))
                checks.fail(f"{what} copies a shape-{shape} array to device {where}: only b, to a's device "
                            f"{first}, needs to move. Every copy the call makes counts, not only the first "
                            f"one: moving a (or the sum) means the add ran away from a's device. "
                            f"See {PLACEMENT_DOCS}", "wrong-sharding")


def test_add_on_first_runs_where_a_lives(exercise):
    added_where_a_lives(exercise)


@pytest.mark.devices(4)
def test_works_with_any_number_of_devices(exercise):
    checks.on_devices(4, added_where_a_lives, exercise)
