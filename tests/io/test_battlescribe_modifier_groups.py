"""Modifier groups hand their conditions and repeats to the modifiers inside them
(``modifiers.modifiers_of``; code review s24, finding 10: the groups around a
modifier were passed down as a blank ``Modifier``, now as their two values). The
expected modifiers are read off the snippet by hand."""

from __future__ import annotations

from xml.etree.ElementTree import fromstring

from hammerlab.io.battlescribe.modifiers import Condition, Conditions, Modifier, modifiers_of

SNIPPET = """
<profile>
  <modifiers>
    <modifier type="set" field="A" value="2"/>
  </modifiers>
  <modifierGroups>
    <modifierGroup>
      <conditions>
        <condition field="selections" scope="parent" childId="g" type="atLeast" value="1"/>
      </conditions>
      <modifiers>
        <modifier type="increment" field="S" value="1">
          <conditions>
            <condition field="selections" scope="self" childId="m" type="equalTo" value="0"/>
          </conditions>
        </modifier>
      </modifiers>
      <modifierGroups>
        <modifierGroup>
          <repeats><repeat field="selections" value="1"/></repeats>
          <modifiers>
            <modifier type="decrement" field="T" value="1"/>
          </modifiers>
        </modifierGroup>
      </modifierGroups>
    </modifierGroup>
  </modifierGroups>
</profile>
"""

GROUP = Condition("selections", "parent", "g", "atLeast", "1", False)
OWN = Condition("selections", "self", "m", "equalTo", "0", False)


def test_nested_groups_hand_down_their_conditions_and_repeats() -> None:
    """The top modifier has no conditions; the group's modifier has the group's
    condition and its own, joined by "and"; the inner group's modifier has the outer
    group's condition and repeats (its group repeats)."""
    assert list(modifiers_of(fromstring(SNIPPET))) == [
        Modifier("set", "A", "2"),
        Modifier(
            "increment",
            "S",
            "1",
            Conditions("and", (Conditions("and", (GROUP,)), Conditions("and", (OWN,)))),
        ),
        Modifier("decrement", "T", "1", Conditions("and", (GROUP,)), repeats=True),
    ]
