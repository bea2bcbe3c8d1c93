"""The subject: the only process that imports a submission, answering the examiner's requests.

`python -I -B -m grader.engine.remote.subject --devices N --submission DIR --fds IN,OUT,AUDIT`

It starts JAX as the checks see it (grader.runtime.jaxsetup), imports everything it
will need, installs its audit hook (grader.engine.remote.audit) and then serves one
request at a time (grader.engine.remote.protocol lists them). It holds no check, no
expected value and no key: what it sends back are observations, and the
examiner decides. Objects that cannot travel by value (the submission's
functions, classes and modules, lowered programs) stay here, behind handles
that live until the check ends (`reset`).
"""

