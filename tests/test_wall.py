"""The wall between judge and judged: what a submission's code can and cannot do to its grade.

Every attack in tests/fixtures/attacks/ is appended to each *unsolved* stub of the purity topic (or
of the exercises its `# exercises:` line names), as a student who read the grader's source would: it
patches the test runner, forges the result channel (key from memory, records on every descriptor),
overwrites the checks library, registers a plugin through the garbage collector, writes result
files, walks frames, exits cleanly, fakes compile events, patches the subject's server classes (a
method that puts itself back, a property shadowing an attribute), or looks for the server (through
the compile listener it registers with JAX, through closures from every module's globals, through
names assembled at run time, through the frame a signal handler is handed, a library hands over or
a tracer is called with, from code a library compiled or whose file was renamed, after rewriting the
audit hook's module state) to make its replies hide a mutated input, answers with an object that
reports a compiled program's layouts itself, or rewrites a probe's record through what the probe handed
it (or through the module that asks for the record). The exercises are imported only in the subject process,
so none of it can reach the examiner that judges, and nothing the submission can reach there leads to
the object that builds the subject's replies: each must score 0, and what the audit hook refused is
flagged for review.

The protocol's own failure modes are tested against fake subjects: one that
dies, hangs, floods, answers garbage or out of shape costs the check it was
serving, with a reason, and the session carries on with a fresh subject.
"""

from __future__ import annotations

import shutil
import sys
import textwrap
from pathlib import Path

import pytest

from grader import REPO_ROOT
from grader.engine.grading import grade
from grader.core.limits import Limits
from grader.core.manifest import select
from support import ALL_EXERCISES, PRISTINE, PURITY

ATTACKS = Path(__file__).parent / "fixtures" / "attacks"
NAMES = sorted(path.stem for path in ATTACKS.glob("*.py") if not path.stem.startswith("_"))  # _x.py: shared parts
# Attacks the subject refuses as they happen (audit hook or tripwire): the submission needs review.
REFUSED = {"runner_patch", "channel_key", "helper_overwrite", "plugin_gc", "frame_walk", "compile_forgery",
           "audit_state", "renamed_code", "library_frames", "laundered_code", "tracer_callback",
           "class_reply_patch", "class_answer_patch", "class_request_patch", "class_property", "probe_patch",
           "codec_tuple", "config_property", "swap_code_sniff", "timed_mutation", "pool_frame_joined",
           "ctypes_library_frame", "warning_del_reply", "nan_hook_left_on", "x64_module_proxy",
           "del_rebinds_module_name"}


def _attack_text(name: str) -> str:
    """An attack's file, after the shared parts its `# with: _part.py` lines name."""
    text = (ATTACKS / f"{name}.py").read_text()
    parts = [line.split(":", 1)[1].strip() for line in text.splitlines() if line.startswith("# with:")]
    return "\n\n".join([(ATTACKS / part).read_text() for part in parts] + [text])


def _attacked_exercises(name: str) -> list:
    """The exercises an attack's `# exercises: id,id` line names; the purity topic without one."""
    text = (ATTACKS / f"{name}.py").read_text()
    ids = [line.split(":", 1)[1].strip() for line in text.splitlines() if line.startswith("# exercises:")]
    return select(ALL_EXERCISES, ",".join(ids)) if ids else PURITY


@pytest.fixture(scope="module")
def attacked(runs, tmp_path_factory):
    """Each attack appended to every stub of the exercises it names, graded on the shared workers."""
    scratch = tmp_path_factory.mktemp("attacks")

    def run(name: str):
        root = scratch / name
        attack, exercises = _attack_text(name), _attacked_exercises(name)
        for entry in exercises:
            stub = (PRISTINE / "exercises" / entry.path).read_text()
            dest = root / entry.path
            dest.parent.mkdir(parents=True, exist_ok=True)
            dest.write_text(stub + "\n\n" + attack)
        return grade(root, only=exercises, limits=Limits(check_seconds=60, submission_seconds=600))

    for name in NAMES:
        runs.submit(f"attack-{name}", run, name)
    return lambda name: runs.get(f"attack-{name}")


@pytest.mark.parametrize("name", NAMES)
def test_an_attack_from_unsolved_stubs_scores_nothing(attacked, name):
    report = attacked(name)
    assert report.score == 0, {e.exercise.id: (e.score, e.reason) for e in report.exercises}
    assert report.forged_results == 0 or report.needs_review
    assert all(e.checks for e in report.exercises), "every exercise is still graded, check by check"


@pytest.mark.parametrize("name, words", [
    ("compile_in_flatten", "while its value was being sent back"),
    ("lazy_result", "an object of the exercise's own (_Later), not an array"),
])
def test_work_left_for_after_the_call_fails_as_such(attacked, name, words):
    """An answer whose work runs after its call returned (while its value is encoded, or when a check
    reads a handle) would compile where no count is open: it fails, saying so."""
    reasons = [check.result.reason for e in attacked(name).exercises for check in e.checks]
    assert any(words in reason for reason in reasons), reasons


# Values right, mechanism wrong: the answers the forgeries are for (one recompiles per value, one writes
# its result back into the caller's dict). Each forging attack is appended to them as well as to stubs.
WRONG_MECHANISMS = {"purity-1": "global_config/mimic_static_temperature.py",
                    "purity-2": "no_mutation/mimic_writes_back.py"}
FORGERIES = sorted(name for name in NAMES if "# with: _forge.py" in (ATTACKS / f"{name}.py").read_text())


@pytest.fixture(scope="module")
def attacked_answers(runs, tmp_path_factory):
    """Each forging attack appended to the values-right, mechanism-wrong answers, graded on the shared workers."""
    scratch = tmp_path_factory.mktemp("forged-answers")
    by_id = {entry.id: entry for entry in PURITY}

    def run(name: str):
        root = scratch / name
        for exercise_id, variant in WRONG_MECHANISMS.items():
            entry = by_id[exercise_id]
            answer = (Path(__file__).parent / "variants" / "01_purity" / variant).read_text()
            dest = root / entry.path
            dest.parent.mkdir(parents=True, exist_ok=True)
            dest.write_text(answer + "\n\n" + _attack_text(name))
        return grade(root, only=[by_id[i] for i in WRONG_MECHANISMS],
                     limits=Limits(check_seconds=60, submission_seconds=600))

    for name in FORGERIES:
        runs.submit(f"forged-answer-{name}", run, name)
    return lambda name: runs.get(f"forged-answer-{name}")


@pytest.mark.parametrize("name", FORGERIES)
def test_a_forgery_on_a_values_right_mechanism_wrong_answer_scores_nothing(attacked_answers, name):
    """The forgeries exist to hide a recompile or a mutation: appended to answers that do exactly that, they
    must earn nothing either."""
    report = attacked_answers(name)
    assert report.score == 0, {e.exercise.id: (e.score, e.reason) for e in report.exercises}


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_what_the_audit_refuses_is_flagged_for_review(attacked, name):
    report = attacked(name)
    assert report.needs_review, f"{name} was refused, so a person should look"
    assert any("refused" in note for note in report.review_notes()), report.review_notes()
    # The check that met it fails as refused (an earlier check of the exercise may have failed first).
    refused = [c.result for e in report.exercises for c in e.checks if c.result.code == "refused"]
    assert refused, "the check that did it failed as refused"
    assert all("never needs" in c.reason for c in refused)


def test_processes_started_from_unsolved_stubs_are_flagged_for_review(attacked):
    """The keeper counts them after each check (which failed on its own merits first): flagged all the same."""
    report = attacked("process_escape")
    assert report.needs_review
    assert any("started 1 process(es) of its own" in note for note in report.review_notes()), report.review_notes()


@pytest.mark.parametrize("processes", ["forked", "new interpreters"])
def test_a_refusal_ends_only_the_exercise_that_did_it(tmp_path, monkeypatch, processes):
    """An attack in one file costs that exercise; the others are still graded on their merits. The
    same holds where examiners and subjects are new interpreters rather than forks of a server."""
    if processes == "new interpreters":
        monkeypatch.setenv("KATAS_NO_FORKSERVER", "1")
    root = tmp_path / "sub"
    shutil.copytree(REPO_ROOT / "solutions" / "01_purity", root / "01_purity")
    path = root / "01_purity" / "no_mutation.py"
    path.write_text(path.read_text() + "\n\n" + (ATTACKS / "plugin_gc.py").read_text())
    report = grade(root, only=PURITY)
    scores = {e.exercise.id: e.score for e in report.exercises}
    assert scores == {"purity-1": 1, "purity-2": 0, "purity-3": 1, "purity-4": 1}, scores
    by_id = {e.exercise.id: e for e in report.exercises}
    assert by_id["purity-2"].code == "refused"
    assert "walks the interpreter's objects (gc)" in by_id["purity-2"].reason
    assert report.needs_review


@pytest.mark.parametrize("isolation", ["namespaces", "process"])
def test_a_process_started_through_the_low_level_primitive_is_counted_flagged_and_ended(tmp_path, isolation):
    """Right answers that also start a process through `_posixsubprocess.fork_exec` (no audit event), in
    a session of its own: the subject's keeper, outside the submission's process, counts it, the check
    fails flagged for review, and the process ends with the subject, with or without the sandbox."""
    import os
    import time

    from grader.engine import sandbox

    try:
        chosen = sandbox.choose(isolation)
    except sandbox.SandboxUnavailable as error:
        pytest.skip(str(error))
    root = tmp_path / "sub"
    shutil.copytree(REPO_ROOT / "solutions" / "01_purity", root / "01_purity")
    path = root / "01_purity" / "no_mutation.py"
    path.write_text(path.read_text() + "\n\n" + (ATTACKS / "process_escape.py").read_text())
    report = grade(root, only=PURITY, isolation=chosen)
    scores = {e.exercise.id: e.score for e in report.exercises}
    assert scores == {"purity-1": 1, "purity-2": 0, "purity-3": 1, "purity-4": 1}, scores
    by_id = {e.exercise.id: e for e in report.exercises}
    assert by_id["purity-2"].code == "refused"
    assert "started 1 process(es) of its own" in by_id["purity-2"].reason
    assert report.needs_review
    time.sleep(0.5)
    left = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            left += [pid] if b"katas-escape" in open(f"/proc/{pid}/cmdline", "rb").read() else []
        except OSError:
            pass
    assert not left, "a process the submission started outlived its grading"


# --- the protocol against subjects that misbehave ------------------------------------------------------

FAKE_SUBJECT = textwrap.dedent('''
    import json, os, struct, sys, time
    mode = sys.argv[1]
    fds = sys.argv[sys.argv.index("--fds") + 1]
    requests, replies, audit = (int(x) for x in fds.split(","))

    def read():
        size = struct.unpack("<Q", os.read(requests, 8))[0]
        data = b""
        while len(data) < size:
            data += os.read(requests, size - len(data))

    def send(payload):
        os.write(replies, struct.pack("<Q", len(payload)) + payload)

    def message(body):
        header = json.dumps([1, body]).encode()
        return struct.pack("<QI", len(header), 0) + header

    read()  # hello
    send(message(["D", 0, [["ok", True], ["value", ["D", 1, [["version", 1]]]], ["effects", ["D", 2, []]]]]))
    read()
    if mode == "dies":
        os._exit(3)
    if mode == "hangs":
        time.sleep(600)
    if mode == "floods":
        os.write(replies, struct.pack("<Q", 1 << 40))
    if mode == "garbage":
        send(b"not a message at all")
    if mode == "wrong-shape":
        send(message(["L", 0, [1, 2, 3]]))
    if mode.startswith("raises "):  # an error reply naming a class that would end the examiner, then carry on
        kind, mro = mode.split()[1:]
        error = ["E", {"type": kind, "mro": mro.split(","), "message": "forged"}]
        send(message(["D", 0, [["ok", False], ["error", error], ["effects", ["D", 1, []]]]]))
        read()
        send(message(["D", 0, [["ok", True], ["value", 7], ["effects", ["D", 1, []]]]]))
    if mode.startswith("rebinds "):  # says a request changed a closure variable of the check's function
        cell = int(mode.split()[1])
        effects = ["D", 1, [["cells", ["D", 2, [[cell, 99]]]]]]
        send(message(["D", 0, [["ok", True], ["value", 7], ["effects", effects]]]))
    if mode.startswith("answers "):  # an answer built by hand: any value the wire can carry
        value = json.loads(mode.split(" ", 1)[1])
        send(message(["D", 0, [["ok", True], ["value", value], ["effects", ["D", 1, []]]]]))
    if mode == "refuses":
        os.write(audit, b"walks the interpreter's objects (gc) (at x.py:3)\\n")
        os._exit(86)
    time.sleep(600)
''')


@pytest.mark.parametrize("mode, code, words", [
    ("dies", "crash", "ended the submission's process early"),
    ("hangs", "timeout", "timed out"),
    ("floods", "crash", "unreadable answer"),
    ("garbage", "crash", "unreadable answer"),
    ("wrong-shape", "crash", "wrong shape"),
    ("refuses", "refused", "walks the interpreter's objects"),
])
def test_a_misbehaving_subject_fails_the_request_it_was_serving(tmp_path, mode, code, words):
    import time

    from grader.engine.remote.examiner import Session, SubjectFailure
    from grader.engine.remote.launch import SubjectConfig

    script = tmp_path / "fake_subject.py"
    script.write_text(FAKE_SUBJECT)
    # The prefix runs the fake instead of the real subject; it finds its descriptors in the rest.
    config = SubjectConfig(submission=str(tmp_path), prefix=[sys.executable, str(script), mode],
                           log=str(tmp_path / "log.txt"))
    session = Session(config)
    session.deadline = time.monotonic() + 3
    with pytest.raises(SubjectFailure) as failure:
        session.request("getattr", obj=1, name="x")
    replaced = session.subject is not None and not session.greeted and session.generation == 2
    session.stop()
    assert failure.value.code == code
    assert words in str(failure.value)
    assert replaced, "the session let go of the subject and started the next one at once"
    if code == "refused":
        assert session.refused == ["walks the interpreter's objects (gc) (at x.py:3)"]


@pytest.mark.parametrize("kind, mro", [
    ("builtins:KeyboardInterrupt", "builtins:BaseException"),
    ("builtins:SystemExit", "builtins:BaseException"),
    ("builtins:GeneratorExit", "builtins:BaseException"),
    ("_pytest.outcomes:Failed", "_pytest.outcomes:OutcomeException,builtins:BaseException"),
    ("_pytest.outcomes:Exit", "builtins:Exception,builtins:BaseException"),
])
def test_a_forged_interrupt_fails_one_request_and_the_subject_carries_on(tmp_path, kind, mro):
    """An error reply naming a class that would end the examiner (pytest stops its session on a
    KeyboardInterrupt) arrives as a plain error of that request: it costs one check, not the examiner."""
    import time

    from grader.engine.remote.examiner import Session
    from grader.engine.remote.launch import SubjectConfig

    script = tmp_path / "fake_subject.py"
    script.write_text(FAKE_SUBJECT)
    config = SubjectConfig(submission=str(tmp_path), prefix=[sys.executable, str(script), f"raises {kind} {mro}"],
                           log=str(tmp_path / "log.txt"))
    session = Session(config)
    session.deadline = time.monotonic() + 10
    try:
        with pytest.raises(Exception) as raised:  # an Exception: pytest fails the check that asked
            session.request("getattr", obj=1, name="x")
        assert type(raised.value).__name__ == kind.rsplit(":", 1)[-1]
        assert str(raised.value) == "forged"
        assert session.request("getattr", obj=1, name="y") == 7  # the same subject answers the next request
        assert session.generation == 1
    finally:
        session.stop()


def _closures():
    """A check's function that only reads a variable of the check, and one that assigns its own."""
    expected = 5
    seen = 0

    def reads():
        return expected

    def assigns():
        nonlocal seen
        seen = 1

    return reads, assigns, lambda: seen


@pytest.mark.parametrize("shipped", ["reads", "assigns"])
def test_a_subject_changes_only_the_variables_the_checks_own_code_assigns(tmp_path, shipped):
    """A request may hand back a closure variable that the shipped function assigns (`nonlocal`, a
    probe's record); one it only reads (an expected value) stays the check's: a subject that says it
    changed fails the request, refused, and is replaced."""
    import time

    from grader.engine.remote.examiner import Session, SubjectFailure
    from grader.engine.remote.launch import SubjectConfig

    reads, assigns, seen = _closures()
    function = reads if shipped == "reads" else assigns
    script = tmp_path / "fake_subject.py"
    script.write_text(FAKE_SUBJECT)
    config = SubjectConfig(submission=str(tmp_path), log=str(tmp_path / "log.txt"),
                           prefix=[sys.executable, str(script), f"rebinds {id(function.__closure__[0])}"])
    session = Session(config)
    session.deadline = time.monotonic() + 10
    try:
        if shipped == "reads":
            with pytest.raises(SubjectFailure) as failure:
                session.request("run", fn=function, args=())
            assert failure.value.code == "refused"
            assert session.refused == ["rebinds a variable of the checks"]
            assert reads() == 5, "the check's expected value is what the check made it"
        else:
            assert session.request("run", fn=function, args=()) == 7
            assert seen() == 99, "what the shipped function assigns comes back, as in one process"
    finally:
        session.stop()


def _answered(tmp_path, value: list):
    """What the examiner makes of a subject's answer `value` (the request names no object)."""
    import json
    import time

    from grader.engine.remote.examiner import Session
    from grader.engine.remote.launch import SubjectConfig

    script = tmp_path / "fake_subject.py"
    script.write_text(FAKE_SUBJECT)
    config = SubjectConfig(submission=str(tmp_path), log=str(tmp_path / "log.txt"),
                           prefix=[sys.executable, str(script), "answers " + json.dumps(value)])
    session = Session(config)
    session.deadline = time.monotonic() + 10
    return session, lambda: session.request("getattr", obj=1, name="x")


def test_an_answer_cannot_name_an_examiner_object_the_check_did_not_hand_over(tmp_path):
    """Objects of the examiner's come back only as references to what this check shipped: a
    reference to anything else (a check's function, the session, an id guessed from the source) is
    an unreadable answer, never the object."""
    from grader.engine.remote.examiner import SubjectFailure

    session, ask = _answered(tmp_path, ["ref", id(test_an_answer_cannot_name_an_examiner_object_the_check_did_not_hand_over)])
    try:
        with pytest.raises(SubjectFailure) as failure:
            ask()
        assert failure.value.code == "crash" and "unreadable answer" in str(failure.value)
    finally:
        session.stop()


def test_a_callable_field_of_a_decoded_dataclass_calls_back_into_the_subject_only(tmp_path):
    """A JAX dataclass that holds a callable (a program's callback) is rebuilt with a proxy in that
    field: calling it asks the subject, whose answer is data; it never reaches a function here."""
    from grader.engine.remote.examiner.proxies import RemoteObject

    callback = ["dc", 3, "jax._src.callback:_FlatCallback", {"callback_func": ["H", 5, {}], "in_tree": None}]
    session, ask = _answered(tmp_path, callback)
    try:
        rebuilt = ask()
        assert type(rebuilt).__name__ == "_FlatCallback"
        assert isinstance(rebuilt.callback_func, RemoteObject), type(rebuilt.callback_func)
    finally:
        session.stop()


# --- the subject host: every subject of a submission forked from one process -------------------------


@pytest.fixture
def subject_host(tmp_path):
    """A subject host (grader.engine.remote.subject.host) on a socket, without a sandbox; the test
    holds its lifeline."""
    import os
    import socket
    import subprocess

    path = tmp_path / "subjects.sock"
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    listener.bind(str(path))
    listener.listen(4)
    lifeline_read, lifeline_write = os.pipe()
    host = subprocess.Popen([sys.executable, "-I", "-B", "-m", "grader.engine.remote.subject.host",
                             "--listen", str(listener.fileno()), "--lifeline", str(lifeline_read)],
                            pass_fds=(listener.fileno(), lifeline_read),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    listener.close()
    os.close(lifeline_read)
    host.socket_path, host.lifeline = path, lifeline_write
    yield host
    host.kill()
    host.wait()
    if host.lifeline is not None:
        os.close(host.lifeline)


def test_subjects_forked_by_the_host_answer_side_by_side_and_end_when_let_go(tmp_path, subject_host):
    import time

    from grader.engine.remote.examiner import Session, SubjectFailure
    from grader.engine.remote.examiner.process import HostedSubject
    from grader.engine.remote.examiner.site import load
    from grader.engine.remote.launch import SubjectConfig

    config = SubjectConfig(submission=str(REPO_ROOT / "solutions"), host=str(subject_host.socket_path),
                           cwd=str(tmp_path), log=str(tmp_path / "log.txt"))
    sessions = [Session(config), Session(config.with_devices(4))]
    modules = [load(session, "01_purity/no_mutation.py", "no_mutation") for session in sessions]
    assert all(isinstance(session.subject.process, HostedSubject) for session in sessions)
    step = [module.sgd_update({"w": 1.0}, {"w": 0.5}, 0.1)["w"] for module in modules]
    assert step == [pytest.approx(0.95)] * 2

    stuck = sessions[1]
    stuck.deadline = time.monotonic() + 1
    with pytest.raises(SubjectFailure) as failure:
        stuck.request("run", fn=time.sleep, args=(60,))
    assert failure.value.code == "timeout"
    assert modules[0].sgd_update({"w": 2.0}, {"w": 1.0}, 1.0)["w"] == pytest.approx(1.0)  # the other goes on

    first = sessions[0].subject.process
    sessions[0].stop()
    assert first.returncode == -9  # the host killed it when the session let go, and said so
    stuck.stop()


def test_the_host_and_its_subjects_end_when_the_grader_does(tmp_path, subject_host):
    """A grader killed mid-grade (a batch worker, say) leaves no host behind: its end of the lifeline
    closes, and the host ends its subjects and itself."""
    import os

    from grader.engine.remote.examiner import Session
    from grader.engine.remote.launch import SubjectConfig

    session = Session(SubjectConfig(submission=str(REPO_ROOT / "solutions"), host=str(subject_host.socket_path),
                                    cwd=str(tmp_path)))
    session.start()
    subject = session.subject.process
    os.close(subject_host.lifeline)
    subject_host.lifeline = None
    assert subject_host.wait(timeout=10) == 0
    assert subject.wait(timeout=10) is not None  # and the subject went with it
    session.stop()


# --- the examiners' fork server: every examiner of a submission forked from one process ---------------


def test_examiners_forked_from_one_server_keep_their_pipes_and_end_with_it(tmp_path):
    """An examiner forked from the server runs pytest in its folder with the pipes the grader handed it
    at the numbers the grader knows them by, and starts as no other process of its user may trace;
    when the grader lets go of the server, a hung examiner ends with it."""
    import os
    import time

    from grader.engine.runner import start_examiners

    (tmp_path / "test_pipe.py").write_text(
        "import ctypes, os\n"
        "def test_writes_to_its_pipe():\n"
        "    dumpable = ctypes.CDLL(None).prctl(3)  # PR_GET_DUMPABLE\n"
        "    os.write(int(os.environ['PIPE']), f'here, dumpable {dumpable}'.encode())\n")
    (tmp_path / "test_hang.py").write_text("import time\ndef test_hangs():\n    time.sleep(120)\n")
    examiners = start_examiners(Limits(), dict(os.environ), tmp_path, None)
    assert examiners is not None
    output = os.open(tmp_path / "output.txt", os.O_WRONLY | os.O_CREAT)
    read_end, write_end = os.pipe()
    try:
        env = {**os.environ, "PIPE": str(write_end)}
        examiner = examiners.fork(["-q", "-p", "no:cacheprovider", "test_pipe.py"], tmp_path, env, (write_end,),
                                  output)
        assert examiner is not None
        assert examiner.wait() == 0, (tmp_path / "output.txt").read_text()
        os.close(write_end)
        assert os.read(read_end, 100) == b"here, dumpable 0"
        assert "1 passed" in (tmp_path / "output.txt").read_text()

        hung = examiners.fork(["-q", "-p", "no:cacheprovider", "test_hang.py"], tmp_path, dict(os.environ), (),
                              output)
        assert _parent_of(hung.pid) == examiners.process.pid
    finally:
        examiners.stop()
        os.close(output)
        os.close(read_end)
    deadline = time.monotonic() + 10
    while _parent_of(hung.pid) is not None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _parent_of(hung.pid) is None, "the hung examiner outlived its server"


def _parent_of(pid: int) -> int | None:
    """The parent of a live process; None once it has ended (a zombie counts as ended)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except FileNotFoundError:
        return None
    return None if fields[0] == "Z" else int(fields[1])


@pytest.mark.parametrize("order", ["swapped", "shifted"])
def test_descriptors_move_to_the_numbers_their_sender_knows_them_by(order):
    """A forked examiner's pipes arrive at free numbers; each is moved to its number in the grader,
    even where those numbers are each other's or the next free ones."""
    import os

    from grader.runtime.forkserver import renumber

    pipes = [os.pipe() for _ in range(3)]
    writers = [w for _, w in pipes]
    if order == "swapped":
        numbers = writers[::-1]
    else:
        probe = [os.dup(0) for _ in range(3)]  # the numbers a dup would take next
        for fd in probe:
            os.close(fd)
        numbers = probe
    try:
        renumber(list(writers), numbers)
        for (reader, _), number in zip(pipes, numbers):
            os.write(number, b"x")
            assert os.read(reader, 1) == b"x"
    finally:
        for reader, _ in pipes:
            os.close(reader)
        for number in numbers:
            os.close(number)


def test_the_tripwires_see_tables_names_shadowed_methods_and_jax_config(tmp_path):
    """What Python does not audit, made and undone in this process: each is a change the subject's
    tripwires name, and a lying `Config` property changes nothing the server reports of a setting."""
    import os

    import jax
    from jax._src import config as jax_config

    from grader.checks import forms
    from grader.engine.remote import tripwires
    from grader.engine.remote.codec import encoder, wire
    from grader.engine.remote.subject.server import Server

    requests, replies = os.pipe()
    try:
        server = Server(tmp_path, jax.device_count(), requests, replies)
        wires = tripwires.Tripwires.of_grader_and_jax(server)
        assert wires.changed() == ""
        table, key = forms.LAX_COLLECTIVES, next(iter(forms.LAX_COLLECTIVES))
        config_class, state_class = type(jax.config), jax_config.State
        cases = [
            (lambda: table.__setitem__(key, "x"), lambda value=table[key]: table.__setitem__(key, value),
             "changed the contents of grader.checks.forms.LAX_COLLECTIVES"),
            (lambda: setattr(encoder, "isinstance", lambda *a: True), lambda: delattr(encoder, "isinstance"),
             "added grader.engine.remote.codec.encoder.isinstance"),
            (lambda: setattr(wire, "MAX_MESSAGE_BYTES", 1),
             lambda value=wire.MAX_MESSAGE_BYTES: setattr(wire, "MAX_MESSAGE_BYTES", value),
             "replaced grader.engine.remote.codec.wire.MAX_MESSAGE_BYTES"),
            (lambda: setattr(server, "_reply", lambda *a: b""), lambda: delattr(server, "_reply"),
             "shadowed Server._reply"),
            (lambda: setattr(server, "__dict__", dict(vars(server))),
             lambda value=vars(server): setattr(server, "__dict__", value), "replaced the attributes (__dict__)"),
            (lambda: setattr(server.settings, "readers", {}),
             lambda value=server.settings.readers: setattr(server.settings, "readers", value),
             "replaced BoundSettings.readers"),
            (lambda: setattr(config_class, "jax_debug_nans", property(lambda self: False)),
             lambda value=vars(config_class)["jax_debug_nans"]: setattr(config_class, "jax_debug_nans", value),
             "replaced Config.jax_debug_nans"),
            (lambda: setattr(state_class, "_set", lambda self, value: None),
             lambda value=vars(state_class)["_set"]: setattr(state_class, "_set", value), "replaced State._set"),
        ]
        for change, undo, expected in cases:
            change()
            try:
                found = wires.changed()
            finally:
                undo()
            assert expected in found, (expected, found)
            assert wires.changed() == "", f"{expected}: undone, nothing is left changed"

        honest = vars(config_class)["jax_debug_nans"]
        with jax.debug_nans(True):
            setattr(config_class, "jax_debug_nans", property(lambda self: False))
            try:
                assert server.op_settings({"names": ["jax_debug_nans"]}) == {"jax_debug_nans": True}
            finally:
                setattr(config_class, "jax_debug_nans", honest)
        assert server.op_settings({"names": ["jax_debug_nans"]}) == {"jax_debug_nans": jax.config.jax_debug_nans}
    finally:
        os.close(requests)
        os.close(replies)


def test_each_container_the_grader_fills_while_serving_is_one_it_has():
    """`_CHANGING` exempts containers by module and name: one that moved to another module would be
    watched there and refuse honest answers, and the stale entry would exempt nothing."""
    import importlib

    from grader.engine.remote import tripwires

    for (module_name, name), why in tripwires._CHANGING.items():
        container = getattr(importlib.import_module(module_name), name, None)
        assert type(container) in tripwires._CONTAINERS, f"{module_name}.{name} ({why}) is not a container there"


def test_the_subject_reads_and_restores_jax_flags_too(tmp_path):
    """A plain `Flag` (jax_disable_most_optimizations: not a config `State`) is one of the server's
    settings: read through `Flag`'s own slot (a property put on the class in its place is a tripwire's
    change, and changes nothing the server reports), and put back at each load."""
    import os

    import jax
    from jax._src import config as jax_config

    from grader.engine.remote import tripwires
    from grader.engine.remote.subject.server import Server

    name = "jax_disable_most_optimizations"
    requests, replies = os.pipe()
    try:
        server = Server(tmp_path, jax.device_count(), requests, replies)
        wires = tripwires.Tripwires.of_grader_and_jax(server)
        server._restore_settings()  # the first load: every setting as JAX has it
        jax.config.update(name, True)  # an answer that leaves it changed
        honest = vars(jax_config.Flag)["value"]
        setattr(jax_config.Flag, "value", property(lambda self: False))
        try:
            assert server.op_settings({"names": [name]}) == {name: True}
            assert "replaced Flag.value" in wires.changed()
        finally:
            setattr(jax_config.Flag, "value", honest)
        server._restore_settings()  # the next load
        assert jax.config.read(name) is False
        assert wires.changed() == ""
    finally:
        jax.config.update(name, False)
        os.close(requests)
        os.close(replies)


def test_what_was_warned_crosses_as_text_without_running_the_submissions_code():
    """A call's warnings go back as (category, text); the text is read only from Python's own warning
    classes, since the capture ends where the server works (a `__str__` of the answer's would run there)."""
    import warnings

    from grader.engine.remote.subject.server import _plain_warning

    ran = []

    class Loud:
        def __str__(self):
            ran.append("str")
            return "loud"

    class OwnWarning(UserWarning):
        def __str__(self):
            ran.append("own")
            return "own"

    def record(message, category):
        return warnings.WarningMessage(message, category, "x.py", 1)

    assert _plain_warning(record(UserWarning("plain text"), UserWarning)) == [UserWarning, "plain text"]
    assert _plain_warning(record(RuntimeWarning("overflow"), RuntimeWarning)) == [RuntimeWarning, "overflow"]
    assert _plain_warning(record(UserWarning(Loud()), UserWarning))[0] is UserWarning
    assert _plain_warning(record(OwnWarning("x"), OwnWarning))[0] is UserWarning
    assert ran == [], ran


def test_a_sealed_class_refuses_every_assignment_and_names_it_for_review():
    """The subject seals the grader's classes before the submission runs: a method swapped for a moment
    (and put back before the tripwires look) is refused at the swap, however it is spelled."""
    from grader.engine.remote.subject import sealing

    class Served:
        def reply(self):
            return "ours"

    assert sealing.seal([Served]) == 1
    for swap in (lambda: setattr(Served, "reply", None), lambda: type.__setattr__(Served, "reply", None),
                 lambda: delattr(Served, "reply"), lambda: setattr(Served, "added", property(len))):
        with pytest.raises(TypeError) as refused:
            swap()
        assert "immutable type 'Served'" in str(refused.value)
    assert Served().reply() == "ours"
    assert sealing.change_refused(refused.value) == "", "a class of the test's, not the grader's"
    assert sealing.change_refused(TypeError("cannot set 'x' attribute of immutable type 'int'")) == ""


def test_an_input_array_follows_every_change_made_to_it_in_place_or_the_call_fails():
    """A check's NumPy input comes back as the subject's copy became: its values, dtype and shape
    changed in place. One the check's array cannot follow (a view, an array held read-only) fails the
    call as the change in place it is; dropping it would show an untouched input."""
    import numpy as np

    from grader.core.failures import KataFailure
    from grader.engine.remote.examiner.session import _update_in_place

    flat = np.arange(6, dtype=np.float32)
    _update_in_place(flat, 2 * np.arange(6, dtype=np.float32).reshape(2, 3))
    assert flat.shape == (2, 3) and flat[1, 2] == 10
    reinterpreted = np.zeros(4, dtype=np.float32)
    _update_in_place(reinterpreted, np.ones(4, dtype=np.int32))
    assert reinterpreted.dtype == np.int32 and reinterpreted.sum() == 4
    view = np.arange(12.0).reshape(3, 4)[:, :2]
    held = np.zeros(3)
    held.flags.writeable = False
    for check_array, became in ((view, np.zeros(6)), (held, np.ones(3))):
        with pytest.raises(KataFailure) as failure:
            _update_in_place(check_array, became)
        assert failure.value.code == "mutates-input"
    assert not held.any() and view.shape == (3, 2)


def test_a_read_only_array_stays_read_only_across_the_wall():
    """np.asarray of a jax.Array is read-only: a write into it fails in the subject as it does in
    one process, rather than succeeding on a writable copy."""
    import jax.numpy as jnp
    import numpy as np

    from grader.engine.remote.codec import Decoder, Encoder

    def crossed(value):
        return Decoder.loads(Encoder(lambda obj, encoder: None).dumps(value), lambda tag, d: None)

    assert not crossed(np.asarray(jnp.arange(3.0))).flags.writeable
    assert crossed(np.arange(3.0)).flags.writeable
