"""Core Rules, 11th edition: the Shooting phase, its shooting types and the WTC ruling."""

from hammerlab.editions import register
from hammerlab.editions.core11.ruleset import Core11Ruleset

register("core11", Core11Ruleset)

__all__ = ["Core11Ruleset"]
