"""What a class misunderstands: `grader report GRADES [--html class.html]`.

Reads the per-student results `grader batch` wrote (`GRADES/students/*.json`;
only the students `GRADES/gradebook.csv` lists, when it exists, so the page
and the tables agree) and groups every failure by its code, the kind of
mistake it reveals (`grader.checks.FAILURE_CODES`). Results written by older
graders (schema v2) carry no codes: their failures are grouped as "unknown".

A student counts once per exercise in each group their failed checks reveal.
An exercise whose file is still its stub (`untouched`, marked by `grader batch`)
is one failure of its own, not attempted, whatever its checks said.
Checks that were not run because an earlier check of the same exercise
failed hard ("not-run") count only when nothing else is known. `failures.csv`
(written by `grader batch`) holds one row per failed check, or one per failed
exercise when no check says more or every failed check says the same (a syntax
error, a missing file): recounting its rows by that rule gives the page's numbers.

The page is one static HTML file: inline CSS and SVG charts written here, no
script, no font or stylesheet to fetch (its content security policy forbids
every load), so it opens from disk, offline, and prints in black and white.
"""

from __future__ import annotations

import csv
import html
import json
import re
import statistics
import time
from collections import Counter
from dataclasses import dataclass, field, replace
from pathlib import Path

from grader import REPO_ROOT
from grader.core.failures import FAILURE_CODES
from grader.course.messages import shown  # results from older graders may carry scratch paths
from grader.course.reports import SCHEMA_VERSION

UNKNOWN = "unknown"
NOT_RUN = "not-run"  # a consequence of an earlier hard failure, not a mistake of its own
# An exercise file identical to its stub: a fix-it's stub runs and fails its checks for the bug it
# was written with, which says nothing of what the student understands (grader batch marks it).
UNTOUCHED = "untouched"
NOT_ATTEMPTED = frozenset({"todo", "missing", NOT_RUN, UNTOUCHED})  # left out of "what the class misunderstands"
FAILURE_HEADER = ["student", "exercise", "check", "hidden", "code", "message"]


def failure_phrases() -> dict[str, str]:
    """FAILURE_CODES (code -> what the answer got wrong): plain Python, so reporting a class never
    imports JAX."""
    return {**FAILURE_CODES, UNKNOWN: "failed (graded before failures had codes)"}


def phrase(code: str, phrases: dict[str, str]) -> str:
    return phrases.get(code, code)


# --- failures: rows and groups ----------------------------------------------------------------

@dataclass(frozen=True)
class Failure:
    """One row of failures.csv."""

    student: str
    exercise: str
    check: str  # "" for an exercise that failed without a failed check saying more
    hidden: bool
    code: str
    message: str

    def row(self) -> list:
        return [self.student, self.exercise, self.check, "yes" if self.hidden else "", self.code, self.message]


def failures_of(record: dict) -> list[Failure]:
    """Every failure of one student's record (none for a submission that could not be graded)."""
    if record.get("error"):
        return []
    found = []
    for exercise in record.get("exercises", []):
        if exercise.get("status") == "passed":
            continue
        reason = shown(exercise.get("reason", ""))
        if exercise.get("code") == UNTOUCHED:  # its checks' failures are the stub's, not the student's
            found.append(Failure(record["student"], exercise["id"], "", False, UNTOUCHED, reason))
            continue
        rows = [Failure(record["student"], exercise["id"], check["name"], bool(check.get("hidden")),
                        check.get("code") or UNKNOWN, shown(check.get("message", "")))
                for check in exercise.get("checks", []) if check.get("status") != "passed"]
        if len(rows) > 1 and len({(f.code, f.message) for f in rows}) == 1:  # one cause: a syntax error, a
            rows = [replace(rows[0], check="", hidden=False)]  # missing file... is one row, not one per check
        own = exercise.get("code") or UNKNOWN
        if own not in {f.code for f in rows}:  # e.g. a file refused before any check could see it
            rows.insert(0, Failure(record["student"], exercise["id"], "", False, own, reason))
        found += rows
    return found


def failure_rows(records: list[dict]) -> list[list]:
    """failures.csv: a header, then one row per failed check (per exercise where its failed checks all
    say the same), students in name order."""
    rows = [FAILURE_HEADER]
    for record in sorted(records, key=lambda r: r["student"]):
        rows += [f.row() for f in failures_of(record)]
    return rows


def group_codes(failures: list[Failure]) -> dict[str, Failure]:
    """The groups one student's failures of one exercise put them in: code -> its first failure."""
    first: dict[str, Failure] = {}
    for failure in failures:
        first.setdefault(failure.code, failure)
    if len(first) > 1:
        first.pop(NOT_RUN, None)
    return first


def groups_by_exercise(records: list[dict]) -> dict[str, dict[str, list[Failure]]]:
    """exercise id -> code -> the first failure of each student in that group (students in name order)."""
    groups: dict[str, dict[str, list[Failure]]] = {}
    for record in sorted(records, key=lambda r: r["student"]):
        per_exercise: dict[str, list[Failure]] = {}
        for failure in failures_of(record):
            per_exercise.setdefault(failure.exercise, []).append(failure)
        for exercise_id, failures in per_exercise.items():
            for code, failure in group_codes(failures).items():
                groups.setdefault(exercise_id, {}).setdefault(code, []).append(failure)
    return groups


def top_failure(groups: dict[str, list[Failure]]) -> tuple[str, int]:
    """The code most students of one exercise share, and how many ('', 0 when none failed)."""
    if not groups:
        return "", 0
    code, members = max(groups.items(), key=lambda item: (len(item[1]), item[0] not in NOT_ATTEMPTED))
    return code, len(members)


# --- isolation -------------------------------------------------------------------------------

def isolation_of(record: dict) -> str:
    return (record.get("isolation") or {}).get("mode", "") or UNKNOWN


def isolation_summary(records: list[dict]) -> list[str]:
    """One line per isolation mode the graded students got: the mode, what it means, who."""
    graded = [r for r in records if not r.get("error")]
    if not graded:
        return []
    by_mode: dict[str, list[dict]] = {}
    for record in graded:
        by_mode.setdefault(isolation_of(record), []).append(record)
    lines = []
    for mode, members in sorted(by_mode.items(), key=lambda item: (-len(item[1]), item[0])):
        guarantee = (members[0].get("isolation") or {}).get("guarantee", "")
        meaning = guarantee.split(":", 1)[0] if guarantee else "not recorded (graded by an older grader)"
        notes = sorted({(m.get("isolation") or {}).get("note", "") for m in members} - {""})
        who = "all" if len(members) == len(graded) else f"{len(members)} of"
        names = f" ({', '.join(m['student'] for m in members)})" \
            if mode != "namespaces" and len(members) < len(graded) else ""
        lines.append(f"isolation: {mode} for {who} {len(graded)} graded students{names}: {meaning}"
                     + (f"; {'; '.join(notes)}" if notes else ""))
    return lines


# --- the class, summed up --------------------------------------------------------------------

@dataclass
class Group:
    exercise: str
    code: str
    members: list[Failure]  # one per student, in name order
    share: float  # of the graded class

    @property
    def anchor(self) -> str:
        return f"group-{self.exercise}-{self.code}"


@dataclass
class ExerciseStats:
    id: str
    concept: str
    passed: int
    graded: int
    groups: list[Group]  # most students first

    @property
    def rate(self) -> float:
        return self.passed / self.graded if self.graded else 0.0


@dataclass
class ClassData:
    title: str
    records: list[dict]  # every student, in name order
    exercises: list[ExerciseStats]  # in teaching (manifest) order
    warnings: list[str] = field(default_factory=list)

    @property
    def graded(self) -> list[dict]:
        return [r for r in self.records if not r.get("error")]

    def top_groups(self, count: int = 12) -> list[Group]:
        """The largest groups that reveal a mistake (not the unattempted), across exercises."""
        found = [g for e in self.exercises for g in e.groups if g.code not in NOT_ATTEMPTED]
        return sorted(found, key=lambda g: (-len(g.members), g.code == UNKNOWN))[:count]


def _teaching_order() -> dict[str, tuple[int, str]]:
    try:
        from grader.core.manifest import load_manifest

        return {e.id: (e.index, e.concept) for e in load_manifest(REPO_ROOT / "exercises")}
    except (OSError, ValueError):
        return {}


def summarize(records: list[dict], title: str = "class", warnings: list[str] | None = None) -> ClassData:
    """The class's numbers: the same counting as gradebook.csv, summary.csv and failures.csv."""
    records = sorted(records, key=lambda r: r["student"])
    graded = [r for r in records if not r.get("error")]
    order = _teaching_order()
    seen: list[str] = []
    for record in graded:
        seen += [e["id"] for e in record.get("exercises", []) if e["id"] not in seen]
    ids = sorted(seen, key=lambda i: (order.get(i, (len(order) + seen.index(i), ""))[0]))
    groups = groups_by_exercise(records)
    exercises = []
    for exercise_id in ids:
        passed = sum(1 for r in graded for e in r["exercises"] if e["id"] == exercise_id and e["status"] == "passed")
        found = [Group(exercise_id, code, members, len(members) / len(graded))
                 for code, members in groups.get(exercise_id, {}).items()]
        found.sort(key=lambda g: (-len(g.members), g.code in NOT_ATTEMPTED, g.code))
        exercises.append(ExerciseStats(exercise_id, order.get(exercise_id, (0, ""))[1], passed, len(graded), found))
    return ClassData(title, records, exercises, list(warnings or []))


def restricted(record: dict, ids: set[str]) -> dict:
    """A result cut down to some exercises (an assignment's), its score and maximum summed again."""
    kept = [e for e in record.get("exercises", []) if e.get("id") in ids]
    cut = {**record, "exercises": kept}
    if not record.get("error"):
        cut["score"] = sum(e.get("score", 0) for e in kept)
    cut["max_score"] = sum(e.get("max_score", 0) for e in kept)
    return cut


def load_class(grades: Path, only: set[str] | None = None) -> ClassData:
    """The results in a `grader batch` output folder (or a folder of result JSON files); with `only`,
    just those exercises (an assignment's), each score summed over them."""
    folder = grades / "students" if (grades / "students").is_dir() else grades
    files = sorted(folder.glob("*.json"))
    if not files:
        raise FileNotFoundError(f"no results in {grades}: expected {grades}/students/*.json from grader batch")
    warnings, records = [], []
    for path in files:
        try:
            record = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
            warnings.append(f"{path.name} could not be read ({error}); left out")
            continue
        if not isinstance(record, dict) or not isinstance(record.get("exercises", []), list):
            warnings.append(f"{path.name} is not a grading result; left out")
            continue
        record.setdefault("student", path.stem)
        records.append(restricted(record, only) if only is not None else record)
    gradebook = grades / "gradebook.csv"
    if gradebook.is_file():  # the class is who the gradebook lists: the page and the tables agree
        with open(gradebook, newline="", encoding="utf-8") as handle:
            listed = {row["student"] for row in csv.DictReader(handle) if row.get("student")}
        missing = sorted(listed - {r["student"] for r in records})
        if missing:
            warnings.append(f"in gradebook.csv but without a result file: {', '.join(missing)}")
        records = [r for r in records if r["student"] in listed]
    old = [r["student"] for r in records if not r.get("error") and r.get("schema_version", 2) < 3]
    if old:
        warnings.append(f"{len(old)} result(s) come from an older grader (schema v2): their failures have no "
                        f"codes and are grouped as '{UNKNOWN}', their isolation is not recorded")
    newer = sorted({r.get("schema_version") for r in records if (r.get("schema_version") or 0) > SCHEMA_VERSION})
    if newer:
        warnings.append(f"results with a newer schema ({newer}) than this grader knows: read as version "
                        f"{SCHEMA_VERSION}")
    return summarize(records, title=grades.resolve().name, warnings=warnings)


def score_bins(data: ClassData) -> list[tuple[str, int]]:
    """(label, students) for the score histogram: one bar per score when that stays readable."""
    graded = data.graded
    maxima = {r["max_score"] for r in graded}
    if len(maxima) == 1 and next(iter(maxima)) <= 40:
        top = next(iter(maxima))
        counts = Counter(r["score"] for r in graded)
        return [(str(score), counts.get(score, 0)) for score in range(top + 1)]
    counts = Counter(min(9, int(10 * r["score"] / r["max_score"])) if r["max_score"] else 9 for r in graded)
    return [(f"{10 * b}-{10 * b + 9 if b < 9 else 100}%", counts.get(b, 0)) for b in range(10)]


def text_summary(data: ClassData, phrases: dict[str, str], count: int = 10) -> str:
    """The page's headline numbers, for the terminal."""
    graded = data.graded
    lines = [f"{len(graded)} students graded in {data.title}"
             + (f" ({len(data.records) - len(graded)} could not be graded)" if len(graded) < len(data.records) else "")]
    lines += [f"warning: {w}" for w in data.warnings]
    top = data.top_groups(count)
    if top:
        lines.append("what the class misunderstands:")
        lines += [f"  {phrase(g.code, phrases)}: {g.share:.0%} of the class in {g.exercise}"
                  f" ({len(g.members)} of {len(graded)})" for g in top]
    lines += isolation_summary(data.records)
    review = [r["student"] for r in data.records if r.get("needs_review")]
    if review:
        lines.append(f"needs review: {', '.join(review)}")
    return "\n".join(lines)


# --- the page ----------------------------------------------------------------------------------

_CSS = """
body { font: 14px/1.45 system-ui, sans-serif; color: #111; background: #fff; margin: 2em auto; max-width: 64em;
       padding: 0 1em; }
h1 { font-size: 1.6em; margin-bottom: 0.2em; } h2 { margin-top: 2em; border-bottom: 1px solid #999; }
h3 { margin: 1.4em 0 0.3em; } .muted { color: #555; } .warn { border-left: 4px solid #000; padding-left: 0.6em; }
table { border-collapse: collapse; margin: 0.4em 0 1em; } th, td { text-align: left; padding: 0.2em 0.7em 0.2em 0;
        vertical-align: top; border-bottom: 1px solid #ddd; } th { border-bottom: 1px solid #666; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; } code { font-size: 0.95em; }
svg { display: block; max-width: 100%; height: auto; } svg text { font: 12px system-ui, sans-serif; fill: #111; }
svg .bar { fill: #444; } svg .track { fill: #fff; stroke: #888; } svg .axis { stroke: #111; }
svg .grid { stroke: #ccc; } nav a { margin-right: 1em; } ul.members li { margin: 0.15em 0; }
.flag { font-weight: bold; } a { color: #0645ad; }
@media print { body { margin: 0; max-width: none; } a { color: #111; text-decoration: none; }
  figure, tr, li { break-inside: avoid; } h2, h3, h4 { break-after: avoid; } nav { display: none; } }
"""


def _e(text) -> str:
    return html.escape(str(text), quote=True)


def _clip(text: str, limit: int = 240) -> str:
    line = " ".join(str(text).split())
    return line if len(line) <= limit else line[: limit - 3] + "..."


def _student_ids(records: list[dict]) -> dict[str, str]:
    ids, used = {}, set()
    for record in records:
        base = "student-" + (re.sub(r"[^A-Za-z0-9_-]+", "-", record["student"]).strip("-") or "x")
        anchor, n = base, 1
        while anchor in used:
            n += 1
            anchor = f"{base}-{n}"
        used.add(anchor)
        ids[record["student"]] = anchor
    return ids


def _histogram_svg(bins: list[tuple[str, int]], x_title: str) -> str:
    width, height, left, bottom, top = 640, 250, 44, 46, 18
    plot_w, plot_h = width - left - 10, height - bottom - top
    most = max([count for _, count in bins] + [1])
    step = max(1, -(-most // 5))  # at most about five gridlines, whole students
    y_max = step * -(-most // step)
    slot = plot_w / max(1, len(bins))
    scale = plot_h / y_max
    parts = [f'<svg role="img" viewBox="0 0 {width} {height}" width="{width}" height="{height}" '
             f'aria-labelledby="hist-title"><title id="hist-title">Students per score</title>']
    for tick in range(0, y_max + 1, step):
        y = top + plot_h - tick * scale
        parts.append(f'<line class="grid" x1="{left}" x2="{width - 10}" y1="{y:.1f}" y2="{y:.1f}"/>'
                     f'<text x="{left - 6}" y="{y + 4:.1f}" text-anchor="end">{tick}</text>')
    for i, (label, count) in enumerate(bins):
        x = left + i * slot + slot * 0.12
        bar_h = count * scale
        y = top + plot_h - bar_h
        parts.append(f'<g data-bin="{_e(label)}" data-students="{count}">'
                     f'<rect class="bar" x="{x:.1f}" y="{y:.1f}" width="{slot * 0.76:.1f}" height="{bar_h:.1f}"/>'
                     f'<text class="count" x="{x + slot * 0.38:.1f}" y="{y - 4:.1f}" text-anchor="middle">'
                     f'{count}</text><text class="label" x="{x + slot * 0.38:.1f}" y="{top + plot_h + 16}" '
                     f'text-anchor="middle">{_e(label)}</text></g>')
    parts.append(f'<line class="axis" x1="{left}" x2="{width - 10}" y1="{top + plot_h}" y2="{top + plot_h}"/>'
                 f'<line class="axis" x1="{left}" x2="{left}" y1="{top}" y2="{top + plot_h}"/>'
                 f'<text x="{left + plot_w / 2:.0f}" y="{height - 6}" text-anchor="middle">{_e(x_title)}</text>'
                 f'<text transform="translate(12 {top + plot_h / 2:.0f}) rotate(-90)" text-anchor="middle">'
                 f'students</text></svg>')
    return "".join(parts)


def _bars_svg(rows: list[tuple[str, float, str, str, str]], title: str, label_width: int = 120) -> str:
    """Horizontal bars: (label, fraction 0..1, value text, link or '', data attributes)."""
    width, row_h, bar_w = 720, 22, 360
    height = row_h * len(rows) + 28
    ident = re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")
    parts = [f'<svg role="img" viewBox="0 0 {width} {height}" width="{width}" height="{height}" '
             f'aria-labelledby="{ident}"><title id="{ident}">{_e(title)}</title>']
    for pct in (0, 25, 50, 75, 100):
        x = label_width + bar_w * pct / 100
        parts.append(f'<line class="grid" x1="{x:.1f}" x2="{x:.1f}" y1="4" y2="{height - 20}"/>'
                     f'<text x="{x:.1f}" y="{height - 6}" text-anchor="middle">{pct}%</text>')
    for i, (label, fraction, value, link, data) in enumerate(rows):
        y = 6 + i * row_h
        text = f'<text x="{label_width - 8}" y="{y + 13}" text-anchor="end">{_e(label)}</text>'
        if link:
            text = f'<a href="#{_e(link)}">{text}</a>'
        parts.append(f'<g {data}>{text}<rect class="track" x="{label_width}" y="{y + 2}" width="{bar_w}" '
                     f'height="{row_h - 8}"/><rect class="bar" x="{label_width}" y="{y + 2}" '
                     f'width="{bar_w * fraction:.1f}" height="{row_h - 8}"/>'
                     f'<text class="value" x="{label_width + bar_w + 8}" y="{y + 13}">{_e(value)}</text></g>')
    parts.append("</svg>")
    return "".join(parts)


def render_html(data: ClassData, phrases: dict[str, str] | None = None) -> str:
    """The whole page, as one self-contained HTML document."""
    phrases = phrases or failure_phrases()
    graded, records = data.graded, data.records
    students = _student_ids(records)
    n = len(graded)
    scores = [r["score"] for r in graded]
    out = ['<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">',
           # Nothing may load from anywhere: the page is whole as written, offline and from disk.
           "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
           "style-src 'unsafe-inline'; img-src data:\">",
           '<meta name="viewport" content="width=device-width, initial-scale=1">',
           f"<title>Class report: {_e(data.title)}</title><style>{_CSS}</style></head><body>",
           f"<h1>Class report: {_e(data.title)}</h1>",
           f'<p id="headline"><span data-graded="{n}">{n}</span> students graded'
           + (f', <span data-ungraded="{len(records) - n}">{len(records) - n}</span> could not be graded'
              if len(records) > n else "")
           + (f"; mean score {statistics.mean(scores):.1f}, median {statistics.median(scores):g} of "
              f"{graded[0]['max_score']}" if scores and len({r['max_score'] for r in graded}) == 1 else "")
           + f'. <span class="muted">Written {_e(time.strftime("%Y-%m-%d %H:%M"))} by grader report.</span></p>']
    out += [f'<p class="warn">{_e(w)}</p>' for w in data.warnings]
    out.append('<nav><a href="#misunderstood">what the class misunderstands</a><a href="#scores">scores</a>'
               '<a href="#pass-rates">pass rates</a><a href="#failures">failures by exercise</a>'
               '<a href="#groups">who is in each group</a><a href="#review">needs review</a>'
               '<a href="#students">students</a></nav>')

    top = data.top_groups()
    out.append('<section id="misunderstood"><h2>What the class misunderstands</h2>')
    if top:
        out.append('<p class="muted">The largest groups of students whose answers reveal the same mistake, '
                   "in share of the graded class (unattempted exercises left out). Each links to its students."
                   "</p><ol>")
        out += [f'<li data-group="{g.anchor}" data-students="{len(g.members)}"><a href="#{g.anchor}">'
                f"{_e(phrase(g.code, phrases))}</a>: <b>{g.share:.0%}</b> of the class in {_e(g.exercise)} "
                f"({len(g.members)} of {n})</li>" for g in top]
        out.append("</ol><figure>" + _bars_svg(
            [(f"{g.exercise} {g.code}", g.share, f"{g.share:.0%} ({len(g.members)})", g.anchor, "")
             for g in top], "Largest failure groups", label_width=230) + "</figure>")
    else:
        out.append("<p>No failures that reveal a mistake.</p>")
    out.append("</section>")

    out.append('<section id="scores"><h2>Score distribution</h2>')
    if graded:
        bins = score_bins(data)
        out.append("<figure>" + _histogram_svg(bins, "points" if "%" not in bins[0][0] else "share of the points")
                   + "</figure>")
    else:
        out.append("<p>No student could be graded.</p>")
    out.append("</section>")

    out.append('<section id="pass-rates"><h2>Pass rate per exercise</h2>'
               '<p class="muted">In teaching order (the manifest\'s); an exercise passes when all its checks do.</p>')
    if data.exercises:
        out.append("<figure>" + _bars_svg(
            [(e.id, e.rate, f"{e.rate:.0%} ({e.passed}/{e.graded})", f"exercise-{e.id}",
              f'data-exercise="{_e(e.id)}" data-passed="{e.passed}" data-graded="{e.graded}"')
             for e in data.exercises], "Pass rate per exercise") + "</figure>")
        out.append('<table id="pass-rate-table"><tr><th>exercise</th><th>idea</th><th class="num">passed</th>'
                   '<th class="num">pass rate</th><th>most common failure</th></tr>')
        for e in data.exercises:
            common = e.groups[0] if e.groups else None
            out.append(f'<tr data-exercise="{_e(e.id)}"><td><a href="#exercise-{_e(e.id)}">{_e(e.id)}</a></td>'
                       f"<td>{_e(e.concept)}</td><td class=\"num passed\">{e.passed}/{e.graded}</td>"
                       f'<td class="num rate">{e.rate:.0%}</td><td>'
                       + (f'<a href="#{common.anchor}">{_e(phrase(common.code, phrases))}</a> '
                          f"({len(common.members)})" if common else "") + "</td></tr>")
        out.append("</table>")
    out.append("</section>")

    out.append('<section id="failures"><h2>Failures by exercise</h2><p class="muted">Each failure is grouped by '
               "the kind of mistake its check found; a student counts once in each group their answer falls in "
               "(checks skipped after a hard failure are not counted).</p>")
    for e in data.exercises:
        out.append(f'<h3 id="exercise-{_e(e.id)}">{_e(e.id)}: {_e(e.concept)} '
                   f'<span class="muted">({e.rate:.0%} passed)</span></h3>')
        if not e.groups:
            out.append("<p>Everyone passed.</p>")
            continue
        out.append('<table class="groups"><tr><th>what went wrong</th><th>code</th><th class="num">students</th>'
                   '<th class="num">share of the class</th></tr>')
        out += [f'<tr data-group="{g.anchor}" data-exercise="{_e(e.id)}" data-code="{_e(g.code)}" '
                f'data-students="{len(g.members)}"><td><a href="#{g.anchor}">{_e(phrase(g.code, phrases))}</a></td>'
                f"<td><code>{_e(g.code)}</code></td><td class=\"num\">{len(g.members)}</td>"
                f'<td class="num">{g.share:.0%}</td></tr>' for g in e.groups]
        out.append("</table>")
    out.append("</section>")

    out.append('<section id="groups"><h2>Who is in each group</h2>')
    for e in data.exercises:
        for g in e.groups:
            out.append(f'<h4 id="{g.anchor}">{_e(e.id)}: {_e(phrase(g.code, phrases))} '
                       f'<span class="muted">({len(g.members)} of {n}, {g.share:.0%})</span></h4><ul class="members">')
            out += [f'<li><a href="#{students[m.student]}">{_e(m.student)}</a>: '
                    + ("(hidden check) " if m.hidden else "") + f"{_e(_clip(m.message))}</li>" for m in g.members]
            out.append("</ul>")
    out.append("</section>")

    review = [r for r in records if r.get("needs_review")]
    out.append('<section id="review"><h2>Needs review</h2>')
    if review:
        out.append("<p>Code that reaches into the grader. The submission was graded as usual; a person should "
                   'read these lines.</p><table><tr><th>student</th><th>what was found</th></tr>')
        out += [f'<tr data-review="{_e(r["student"])}"><td><a href="#{students[r["student"]]}">{_e(r["student"])}'
                "</a></td><td>" + "<br>".join(_e(_clip(note, 300)) for note in r.get("review", [])) + "</td></tr>"
                for r in review]
        out.append("</table>")
    else:
        out.append("<p>No submission needs review.</p>")
    out.append("</section>")

    out.append('<section id="students"><h2>Students</h2>'
               + "".join(f"<p>{_e(line)}</p>" for line in isolation_summary(records))
               + '<table><tr><th>student</th><th class="num">score</th><th class="num">exercises passed</th>'
               "<th>isolation</th><th>needs review</th><th>could not be graded</th></tr>")
    for r in records:
        mode = isolation_of(r) if not r.get("error") else ""
        sandboxed = ' <span class="flag">(not sandboxed)</span>' if mode == "process" else ""
        passed = sum(e["status"] == "passed" for e in r.get("exercises", []))
        out.append(f'<tr id="{students[r["student"]]}" data-student="{_e(r["student"])}">'
                   f"<td>{_e(r['student'])}</td>"
                   + (f'<td class="num score">{r["score"]}/{r["max_score"]}</td>'
                      f'<td class="num">{passed}/{len(r["exercises"])}</td>' if not r.get("error")
                      else '<td class="num score"></td><td></td>')
                   + f'<td class="isolation">{_e(mode)}{sandboxed}</td>'
                   f"<td>{'yes' if r.get('needs_review') else ''}</td><td>{_e(_clip(r.get('error', '')))}</td></tr>")
    out.append("</table></section></body></html>")
    return "\n".join(out) + "\n"
