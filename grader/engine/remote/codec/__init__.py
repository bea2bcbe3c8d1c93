"""Values across the wall: a message is a JSON tree plus binary blobs.

The format is the project's own, and decoding it never runs code: JSON
is parsed, arrays are rebuilt from their bytes, and a class is found by name
only among NumPy's and JAX's (`TRUSTED_MODULES`), then built without calling
its constructor's logic (enums by name, named tuples and dataclasses field by
field, meshes and shardings from device ids). Everything else travels as a
reference the receiving side resolves (`Encoder.refer`, `Decoder.resolve`):
a handle to an object that stays where it lives, or, from the examiner only,
a check's own function shipped to run in the subject.

Identity survives inside one message (a list holding the same array twice
arrives holding one array twice), which is how an output that *is* an input
is recognised.

The parts: `wire` (framing, trusted class names, JAX's singletons, dtypes),
`encoder` and `decoder`.
"""

from grader.engine.remote.codec.decoder import Decoder, RemoteError
from grader.engine.remote.codec.encoder import Encoder, encode_array, encode_numpy
from grader.engine.remote.codec.wire import (MAX_MESSAGE_BYTES, VERSION, J, WireError, pack, protocol_transfers,
                                             trusted_class, trusted_module, unpack)


__all__ = ["MAX_MESSAGE_BYTES", "VERSION", "Decoder", "Encoder", "J", "RemoteError", "WireError", "encode_array",
           "encode_numpy", "pack", "protocol_transfers", "trusted_class", "trusted_module", "unpack"]
