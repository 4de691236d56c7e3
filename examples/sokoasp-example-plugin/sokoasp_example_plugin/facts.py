"""The corner strategy's Python facts: the squares a box must never be pushed onto."""

from sokoasp import Level


def corner_facts(level: Level) -> str:
    """``corner(X,Y).`` for each floor square off the goals with a wall on two sides at a right
    angle: a box pushed there can never be pushed again."""
    facts = []
    for x, y in sorted(level.floor - level.goals):
        blocked = [(x + dx, y + dy) not in level.floor for dx, dy in ((1, 0), (0, 1), (-1, 0), (0, -1))]
        if any(blocked[i] and blocked[(i + 1) % 4] for i in range(4)):
            facts.append(f"corner({x},{y}).")
    return "\n".join(facts) + "\n"
