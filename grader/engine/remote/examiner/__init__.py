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

The parts, bottom up: `process` (the subject process and its failures),
`tracing` (calls with tracers), `proxies` (what a check holds of the subject's
objects), `outgoing` and `incoming` (the two halves of a session's traffic),
`session` (one subject at a time, and the current check's state of it), `site`
(the exercise module a check sees, and the helpers' questions to the subject).
"""

from grader.engine.remote.examiner.process import SubjectFailure, forbid_inspection
from grader.engine.remote.examiner.session import Session
from grader.engine.remote.examiner.site import RemoteModule, RemoteSite, load, serve_devices


__all__ = ["RemoteModule", "RemoteSite", "Session", "SubjectFailure", "forbid_inspection", "load", "serve_devices"]
