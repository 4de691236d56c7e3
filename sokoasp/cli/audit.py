"""``sokoasp audit``: a member's soundness claim against the exact optimum, on generated levels."""

from __future__ import annotations

import json
import signal
import sys
from dataclasses import asdict
from pathlib import Path

import click

from sokoasp.board.xsb import write_level
from sokoasp.cli.options import Member
from sokoasp.errors import ExitCode
from sokoasp.registry import is_path
from sokoasp.tools.audit import Audit, AuditSettings, audit
from sokoasp.tools.files import write_new

DEFAULTS = AuditSettings()


@click.command(name="audit")
@click.argument("member")
@click.option("--family", "-f", type=Member("encoding"), help="A strategy's family to run it with (default: its first "
              "family driven by the horizon loop).")
@click.option("--levels", type=click.IntRange(1, 100_000), default=DEFAULTS.levels, show_default=True,
              help="Small levels, each against the breadth-first optimum.")
@click.option("--larger", type=click.IntRange(0, 100_000), default=DEFAULTS.larger, show_default=True,
              help="Then larger levels, each against the family without the strategy.")
@click.option("--seed", type=click.IntRange(0, 2**31), default=DEFAULTS.seed, show_default=True,
              help="The level stream: the same seed, the same levels and the same verdict.")
@click.option("--work", type=click.IntRange(100, 10**9), default=DEFAULTS.work, show_default=True,
              help="Work units per solve; a level that needs more is skipped.")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=Path("."), show_default=True,
              help="Folder for the counterexample, written as audit-MEMBER-FAMILY.sok.")
@click.option("--json", "as_json", is_flag=True, help="Print the audit as JSON.")
def audit_command(member: str, family: str | None, levels: int, larger: int, seed: int, work: int, out: Path,
                  as_json: bool) -> None:
    """Check a strategy's or encoding's claim against the exact optimum on generated levels.

    MEMBER is a strategy (name or ./folder/) or an encoding family (name or file.lp). Each small
    level is solvable by construction; the breadth-first optimum (moves or pushes, the family's
    unit) is what a family that proves optimality must reach with the member, and a plan is what
    any family must find. Larger levels compare the family with and without a strategy. The
    first level where the member falls short is written to --out and reported with its optimum.

    A clean audit says "consistent on N levels", never "proven". Exit code 1: the claim is
    contradicted.

    \b
    Examples:
      sokoasp audit ff                          (shown to lose: a counterexample)
      sokoasp audit clutter --family push       (consistent with keeping every optimal plan)
      sokoasp audit ./my-strategy/ --levels 1000
      sokoasp audit my-family.lp
    """
    settings = AuditSettings(levels=levels, larger=larger, seed=seed, work=work)
    with click.progressbar(length=levels + larger, label="levels", file=sys.stderr) as bar:
        report = audit(member, family, settings, progress=lambda: bar.update(1))
    written = write_counterexample(report, out) if report.finding is not None else None
    if as_json:
        click.echo(json.dumps(as_dict(report, written), indent=2))
    else:
        click.echo(render(report, written))
    if report.contradicted:
        sys.exit(ExitCode.ERROR)
    if report.interrupted:  # what was seen is printed above
        sys.exit(128 + signal.SIGINT)


def write_counterexample(report: Audit, out: Path) -> Path:
    assert report.finding is not None
    name = Path(report.member.rstrip("/")).stem if is_path(report.member) else report.member
    out.mkdir(parents=True, exist_ok=True)
    return write_new(out / f"audit-{name}-{report.family}.sok", write_level(report.finding.level))


def render(report: Audit, written: Path | None) -> str:
    lines = [f"member:     {report.member} on {report.family} (claims: {report.claim})",
             f"levels:     {report.kept} kept what the family must, {report.skipped} skipped (budget)"]
    found = report.finding
    if found is not None:
        best = "no plan" if found.found is None else f"{found.found} {report.unit}"
        lines += [f"finding:    level {found.number}: {found.kind.value}: optimum {found.optimum} {report.unit}, "
                  f"with the member {best}",
                  f"written:    {written}", *("            " + row for row in write_level(found.level).splitlines())]
    lines.append(f"verdict:    {report.summary}")
    return "\n".join(lines)


def as_dict(report: Audit, written: Path | None) -> dict[str, object]:
    found = report.finding
    finding = None if found is None else {**asdict(found), "kind": found.kind.value, "level": write_level(found.level),
                                          "written": str(written)}
    return {"member": report.member, "family": report.family, "unit": report.unit, "claim": report.claim,
            "kept": report.kept, "skipped": report.skipped, "finding": finding,
            "verdict": None if report.verdict is None else report.verdict.value, "summary": report.summary,
            "contradicted": report.contradicted, "interrupted": report.interrupted}
