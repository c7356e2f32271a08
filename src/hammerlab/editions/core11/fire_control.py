"""What a unit may fire, and at whom, while it shoots ("While shooting" of 10.05–10.07)."""

from __future__ import annotations

from dataclasses import dataclass

from hammerlab.editions.core11.weapons import WeaponProfile


@dataclass(frozen=True)
class FireControl:
    """The limits a shooting type puts on a shooting unit's attacks."""

    name: str
    """The shooting type (``normal``, ``assault``...) or ``reactive``."""
    assault_only: bool = False
    close_quarters: bool = False
    indirect: bool = False
    only_target: str | None = None
    """A unit that must be the target (reactive shooting at the attacking unit)."""

    def weapon_allowed(self, monster_or_vehicle: bool, weapon: WeaponProfile) -> bool:
        """Whether a model may select ``weapon`` to make attacks with.

        10.05: "You can only select [ASSAULT] weapons to make attacks with."
        10.06, non-MONSTER/VEHICLE models: "You can only select [CLOSE-QUARTERS]
        weapons to make attacks with".
        """
        if self.assault_only and not weapon.has("ASSAULT"):
            return False
        return not (
            self.close_quarters and not monster_or_vehicle and not weapon.has("CLOSE-QUARTERS")
        )

    def target_allowed(
        self,
        monster_or_vehicle: bool,
        weapon: WeaponProfile,
        engaged_with_shooter: bool,
        engaged_with_army: bool,
    ) -> bool:
        """Whether a model may target a unit, as far as the shooting type goes.

        10.06: "Models in your unit can target enemy units your unit is engaged
        with." Non-MONSTER/VEHICLE models: "you can only select enemy units that
        are engaged with your unit as targets". MONSTER/VEHICLE models: "If that
        attack is made with a [BLAST] weapon, it still cannot target a unit your
        unit is engaged with." The word "still" reads [BLAST] as never targeting a
        unit engaged with the attacker's army, whatever the shooting type.
        """
        if weapon.has("BLAST") and (engaged_with_army or engaged_with_shooter):
            return False
        if self.close_quarters:
            return monster_or_vehicle or engaged_with_shooter
        return not engaged_with_shooter

    def needs_sight(self, weapon: WeaponProfile) -> bool:
        """10.07: "[INDIRECT FIRE] weapons in your unit can target units that are not
        visible to the attacking model." Every other attack needs sight."""
        return not self.indirect_attack(weapon)

    def indirect_attack(self, weapon: WeaponProfile) -> bool:
        """Whether an attack of ``weapon`` follows 10.07's "Each time an [INDIRECT
        FIRE] weapon makes an attack" rules (cover, no hit re-rolls, 1–5 fails)."""
        return self.indirect and weapon.has("INDIRECT FIRE")

    def hit_penalty(
        self, monster_or_vehicle: bool, weapon: WeaponProfile, engaged_with_shooter: bool
    ) -> bool:
        """10.06, MONSTER/VEHICLE models: "Unless that attack is made with a
        [CLOSE-QUARTERS] weapon and targets a unit your unit is engaged with,
        subtract 1 from the hit roll." """
        if not (self.close_quarters and monster_or_vehicle):
            return False
        return not (weapon.has("CLOSE-QUARTERS") and engaged_with_shooter)
