"""The breadth-first phase: the exact push-optimal search of sokoasp's oracle, within the
phase's work budget (one unit per state). Python, not ASP; complete within its budget; its plan
is push-optimal but sokoasp calls no phase's plan optimal."""

from sokoasp import Level, Phase, PhaseContext, PhaseOutcome, PhaseReport
from sokoasp.sokoban.breadth_first import fewest_pushes_until
from sokoasp.sokoban.end_game import pushed_moves

WORK = 20_000  # states: enough for the small levels breadth-first search is for
MOST_STATES = 10**7  # without a work budget (a time limit alone): memory's bound


def run(level: Level, context: PhaseContext) -> PhaseOutcome:
    done = fewest_pushes_until(level.floor, level.boxes, level.player, lambda boxes: boxes == level.goals,
                               context.clock.allow(MOST_STATES))
    context.clock.charge(done.states)
    pushes = done.pushes
    if pushes is None:
        return PhaseOutcome(None, PhaseReport("breadth-first", f"no plan within {done.states} states"))
    plan = pushed_moves(level, [(box, (box[0] + d[0], box[1] + d[1])) for box, d in pushes])
    return PhaseOutcome(plan, PhaseReport("breadth-first", f"a push-optimal plan by breadth-first search in Python, {len(pushes)} pushes"))


PHASE = Phase("breadth-first", "python", True, "the exact breadth-first search over pushes (example plugin)",
              "sokoasp_example_plugin.phase")
