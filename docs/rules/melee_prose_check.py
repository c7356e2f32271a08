"""Print the cells where the seed's melee To Hit chart disagrees with its prose."""

from hammerlab.editions.waffle.tables import MELEE_TO_HIT


def prose(attacker: int, target: int) -> str:
    """The To Hit roll the prose under the chart describes."""
    if target >= 2 * attacker + 3:
        return "6+"
    if target > 2 * attacker:
        return "5+"
    if attacker >= 2 * target:
        return "2+"
    if attacker > target:
        return "3+"
    return "4+"


for a in range(1, 11):
    for t in range(1, 11):
        cell = MELEE_TO_HIT[a - 1][t - 1]
        if cell != prose(a, t):
            print(f"| {a} | {t} | {cell} | {prose(a, t)} |")
