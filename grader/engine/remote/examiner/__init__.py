"""The examiner's side of the wall: the subject process, and the proxies a check sees.

A check written for a module keeps working on `RemoteModule`: reading a name
gives a value (arrays rebuilt with their sharding) or a proxy, calling a proxy
runs the function in the subject, and calling it with tracers (a check that
jits, vmaps or differentiates an exercise function) has the subject trace it
for those abstract values and runs the jaxpr it sends back here, inside the
check's own transformation: the values and the program are then computed by
the examiner. What a call did besides returning (printed text, compiles,
inputs deleted by donation or changed in place) is replayed here: text to
this process's stdout, compiles to the open `count_compiles` blocks, deleted
and changed inputs onto the check's own objects.

A check's own functions and objects handed to the exercise (a swapped inner
function, a probe that records what it saw) are shipped: their code runs in
the subject, never the other way round, and objects come back with the state
the call left them in.

The parts, bottom up; each imports only those before it, and only their
public names:

- `process`: the subject process (started, greeted, stopped) and its failures.
- `shipping`: what a check's own objects are made of when handed over
  (closures and their cells, jitted functions, dataclass fields, which
  classes are the check's).
- `tracing`: calls with tracers: the tracers a request carries, the trace
  request, and the program it brings back run here. It asks the session
  through `Requester`, a Protocol of its own.
- `proxies`: what stands in for the subject's objects (functions, classes,
  the exercise's names, pytree nodes, an escaped tracer). They ask through
  `Link`, a Protocol of their own that `Session` satisfies.
- `outgoing` and `incoming`: what crosses the wire: encoding a request (the
  check's objects as references, shipments and mirrors) and decoding an
  answer (handles into proxies, stand-ins into the check's objects).
- `session`: one subject at a time, and the current check's state of it.
- `site`: the exercise module a check sees, and the helpers' questions to
  the subject.
"""

from grader.engine.remote.examiner.process import SubjectFailure, forbid_inspection
from grader.engine.remote.examiner.session import Session
from grader.engine.remote.examiner.site import RemoteModule, RemoteSite, load, serve_devices


__all__ = ["RemoteModule", "RemoteSite", "Session", "SubjectFailure", "forbid_inspection", "load", "serve_devices"]
