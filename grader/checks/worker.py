"""`python -m grader.checks.worker N IN_FD OUT_FD`: run checks with N CPU devices, on request.

Started by `checks.on_devices`: forked from the check process's fork server
(grader.checks.forkserver), which calls `serve`, or as this command. The first line on IN_FD is a signing key; each
later line is a request (a check file, a function name, an exercise file),
answered by one signed JSON line on OUT_FD. A private pipe and a key read
before any learner code runs, so the code under test cannot forge a pass.
"""

from __future__ import annotations

import json
import os
import sys


def main() -> None:
    serve(*(int(arg) for arg in sys.argv[1:4]))


def serve(n_devices: int, requests_fd: int, replies_fd: int) -> None:
    from grader.limits import die_with_parent
    from grader.jaxsetup import configure_jax

    die_with_parent()
    configure_jax(n_devices)
    from grader.checks.devices import sign, worker_answer

    with os.fdopen(requests_fd, "r", encoding="utf-8") as requests, \
            os.fdopen(replies_fd, "w", encoding="utf-8", buffering=1) as replies:
        key = bytes.fromhex(json.loads(requests.readline())["key"])
        for line in requests:
            request = json.loads(line)
            answer = worker_answer(n_devices, request["check_file"], request["function"],
                                   request["exercise"], request["label"], request.get("subject"),
                                   request.get("path", ""))
            replies.write(json.dumps({**answer, "mac": sign(key, answer)}) + "\n")


if __name__ == "__main__":
    main()
