"""Right, unusually: keeps two levels of derivatives, and load deserializes inside the returned function."""

from jax import export


def save(exported):
    return bytes(exported.serialize(vjp_order=2))


def load(data):
    def run(*args):
        return export.deserialize(bytearray(data)).call(*args)

    return run
