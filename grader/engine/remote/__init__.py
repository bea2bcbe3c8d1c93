"""Grading across a wall: the examiner judges, the subject runs the submission.

Under `grader`, a submission's code never runs in the process that decides
its score. The examiner (a pytest process with the pristine checks, visible
and hidden) starts a subject process per submission, inside the sandbox, and
the `exercise` fixture hands each check a proxy for the exercise module. The
proxy forwards what a check does with the exercise over a narrow, versioned
protocol (`protocol.py`): import the exercise file, read and set names, call
a function on values (arrays travel with their shardings), trace a function
for the abstract values of a JAX transformation the check applies (its jaxpr
comes back and the examiner runs it itself), and report what happened on the
way: compiles, prints, buffers handed over, audit refusals.

- `codec/`: values to bytes and back, arrays, shardings and jaxprs included;
  the examiner decodes only data and JAX's own classes, never code.
- `subject.py`: the subject's server (`python -m grader.engine.remote.subject`).
- `examiner/`: the subject process, the proxies the checks see, what
  crosses the wire, the session, and the exercise module as a check sees it.
- `audit.py`: the subject's audit hook (PEP 578).
- `tripwires.py`: what the hook cannot see (a module's or a class's attribute
  assigned, a table's entry, an attribute shadowing a method, JAX's config
  class), compared after every return from submission code.

A learner's own `pytest exercises/` checks in one process, as before: a
learner can only fool themselves, and the project's tests prove both modes
give the same verdicts.
"""
