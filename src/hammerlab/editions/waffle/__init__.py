"""Waffle Edition 40K: the seeds' edits of the 6th/7th-edition rules."""

from hammerlab.editions import register
from hammerlab.editions.waffle.ruleset import WaffleRuleset

register("waffle", WaffleRuleset)

__all__ = ["WaffleRuleset"]
