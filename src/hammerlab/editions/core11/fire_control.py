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
    own_phase: bool = True
    """The attacker's own Shooting phase ("In your Shooting phase": 17.03, [HEAVY])."""
    overwatch: bool = False
    """Fire Overwatch: "an unmodified Hit roll of 6 is required to score a hit"."""
    melee: bool = False
    """Melee attacks of a unit selected to fight (12.05): no cover, no half range."""

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
        target_engaged: bool,
        target_monster_or_vehicle: bool,
    ) -> bool:
        """Whether a model may target a unit, as far as engagement goes.

        04.02, while shooting: "Unless otherwise stated, each target must be: ...
        Unengaged." The exceptions: 10.06 "Models in your unit can target enemy
        units your unit is engaged with." — but non-MONSTER/VEHICLE models "can
        only select enemy units that are engaged with your unit as targets", and
        a MONSTER/VEHICLE model's [BLAST] weapon "still cannot target a unit your
        unit is engaged with"; 17.03 "In your Shooting phase, enemy
        MONSTER/VEHICLE units that are engaged can be selected as targets of
        ranged attacks (excluding attacks made with [BLAST] weapons)."
        """
        limited = self.close_quarters and not monster_or_vehicle
        if not target_engaged:
            return not limited
        if weapon.has("BLAST"):
            return False
        if self.close_quarters and engaged_with_shooter:
            return True
        return not limited and self.own_phase and target_monster_or_vehicle

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

    @staticmethod
    def engaged_target_penalty(
        weapon: WeaponProfile,
        engaged_with_shooter: bool,
        target_engaged: bool,
        target_monster_or_vehicle: bool,
    ) -> bool:
        """17.03: "Each time a model makes a ranged attack that targets such a unit
        [an engaged MONSTER/VEHICLE unit], subtract 1 from the hit roll (excluding
        attacks made with [CLOSE-QUARTERS] weapons by models in a unit engaged with
        the target)." """
        if not (target_engaged and target_monster_or_vehicle):
            return False
        return not (weapon.has("CLOSE-QUARTERS") and engaged_with_shooter)
