"""The 11th edition's exact odds behind the edition-neutral interface (``analysis.odds``)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace

from hammerlab.analysis.odds import (
    LibraryQuestion,
    OddsResult,
    PlainQuestion,
    QuestionError,
    flag,
    refuse_unused,
    register_calculator,
    register_engine_check,
)
from hammerlab.editions import get_ruleset
from hammerlab.editions.core11.abilities import FactsLookup, feel_no_pain_of
from hammerlab.editions.core11.attacks import Battery, resolve_battery
from hammerlab.editions.core11.fire_control import FireControl
from hammerlab.editions.core11.odds_questions import (
    SITUATIONS,
    Answer,
    is_melee,
    library_answer,
    odds_target,
    plain_answer,
)
from hammerlab.editions.core11.ruleset import Core11Ruleset
from hammerlab.editions.core11.state import Core11Game
from hammerlab.editions.core11.weapons import read_weapon
from hammerlab.engine.battle import Battle
from hammerlab.engine.datasheet import Datasheet, ModelEntry, Weapon
from hammerlab.engine.units import Unit

NO_SAVE = 7
"""core11 writes "no save" as Sv 7+."""


class Core11Calculator:
    """The 11th edition's exact odds (``hammerlab.editions.core11.odds``)."""

    @property
    def situations(self) -> Mapping[str, str]:
        """See :data:`hammerlab.editions.core11.odds_questions.SITUATIONS`."""
        return SITUATIONS

    @property
    def plain_required(self) -> tuple[tuple[str, ...], ...]:
        """Attacks, BS and Damage."""
        return (("attacks",), ("skill",), ("damage",))

    @property
    def skill_is_roll(self) -> bool:
        """Yes: BS is written as the roll (3+)."""
        return True

    def plain(self, question: PlainQuestion) -> OddsResult:
        """Odds for numbers."""
        refuse_unused("core11", question, ("weapon_type", "hits", "cover", "rules"))
        if question.attacks is None or question.skill is None or question.damage is None:
            left = [f for f in ("attacks", "skill", "damage") if getattr(question, f) is None]
            raise QuestionError(
                "core11 odds need the attacks, the BS and the damage", ", ".join(map(flag, left))
            )
        try:
            ap = int(question.ap)
        except ValueError:
            raise QuestionError(f"must be a whole number, not {question.ap!r}", "--ap") from None
        answer = plain_answer(
            attacks=question.attacks,
            skill=question.skill,
            strength=question.strength,
            ap=ap,
            damage=question.damage,
            keywords=question.keywords,
            toughness=question.toughness,
            save=NO_SAVE if question.save is None else question.save,
            wounds=question.wounds,
            models=question.target_models,
            firing_models=question.firing_models,
            invulnerable=question.invulnerable,
            feel_no_pain=question.feel_no_pain,
            target_keywords=question.target_keywords,
            situation=question.situation,
        )
        return _result(answer)

    def library(self, question: LibraryQuestion) -> OddsResult:
        """Odds for two units of the wh40kdc library."""
        refuse_unused("core11", question, ("hits", "cover", "rules"))
        rules = get_ruleset("core11")
        target = question.find(rules, question.target)
        assert isinstance(rules, Core11Ruleset)
        facts = rules.library.ability
        fnp = feel_no_pain_of(target.army, target.rules, facts)
        answer = library_answer(
            question.find(rules, question.attacker),
            question.weapon,
            question.profile,
            target,
            question.firing_models,
            question.target_models,
            question.situation,
            fnp,
        )
        applied = () if fnp is None else (_feel_no_pain_note(target, fnp, facts),)
        left_out = _feel_no_pain_left_out(target, facts)
        return _result(replace(answer, notes=(*applied, *left_out, *answer.notes)))

    def weapon_fit(self, weapon: Weapon) -> str:
        """A melee weapon is refused ("... is a melee weapon"); any other is asked as it
        is (a [BLAST] weapon counts the target's models itself)."""
        return "melee" if is_melee(weapon) else "ok"


def _feel_no_pain_note(target: Datasheet, fnp: int, facts: FactsLookup) -> str:
    """The note naming the ability of ``target`` that gives it the Feel No Pain ``fnp``+
    the odds apply (interpretation 21: "from the abilities as in battles", read by
    :func:`abilities.feel_no_pain_of`), and saying when that ability is an aura, which
    the unit bearing it has too (as wh40kdc's own resolver gives a unit its abilities).
    A review (s23, odds 4) saw a Rhino's damage fall below its unsaved wounds with no
    reason given: the dataset gives the Rhino "Truesilver Aegis (Aura)", a Feel No Pain 6+.
    """
    source = next(r for r in target.rules if feel_no_pain_of(target.army, [r], facts) == fnp)
    known = facts(target.army, source)
    parts = [] if source.lower() == f"feel no pain {fnp}+" else [f"its ability {source}"]
    if known is not None and known.aura_inches is not None:
        parts.append(f'a {known.aura_inches:g}" aura, which the unit bearing it has too')
    named = f" ({', '.join(parts)})" if parts else ""
    return f"{target.name}: Feel No Pain {fnp}+{named}"


def _feel_no_pain_left_out(target: Datasheet, facts: FactsLookup) -> tuple[str, ...]:
    """A note for each ability of ``target`` that the dataset writes as a Feel No Pain
    but that does not hold all battle long or against every attack (Living Fortress:
    "Once per battle, until the end of the phase"; "against mortal wounds"), which
    the odds leave out as battles do (review s23, core11 1: Living Fortress halved
    the damage with a note that it was applied)."""
    notes = []
    for rule in target.rules:
        known = facts(target.army, rule)
        if known is not None and known.effect_type == "feel-no-pain" and known.feel_no_pain is None:
            said = known.summary.splitlines()[0] if known.summary else "no summary"
            notes.append(
                f"{target.name}: {rule} is not modelled: no Feel No Pain is taken from it "
                f"(the dataset: {said})"
            )
    return tuple(notes)


def _result(answer: Answer) -> OddsResult:
    odds = answer.odds
    return OddsResult(
        edition="core11",
        question=answer.description,
        models_killed=odds.models_killed,
        unsaved_wounds=odds.unsaved_wounds,
        means={
            "attacks": odds.mean_attacks,
            "hits": odds.mean_hits,
            "wounds": odds.mean_wounds,
            "unsaved_wounds": odds.mean_unsaved,
            "damage": odds.mean_damage,
        },
        notes=answer.notes,
    )


class Core11EngineCheck:
    """The engine check of the 11th edition's odds (``analysis.odds_check``): the table
    sets up half range or not, and firers that remained stationary or not; the weapon
    fires by ``attacks.resolve_battery``, as a Normal shooting type's."""

    @property
    def situations(self) -> frozenset[str]:
        """``half-range`` and ``stationary``."""
        return frozenset({"half-range", "stationary"})

    def odds_target(self, sheet: Datasheet, models: int | None) -> ModelEntry:
        """:func:`hammerlab.editions.core11.odds_questions.odds_target`."""
        return odds_target(sheet, models)

    def weapon_range(self, weapon: Weapon) -> float:
        """The weapon's Range."""
        return read_weapon(weapon).range

    def moved(self, situations: frozenset[str]) -> bool:
        """Moved unless the question says the firers remained ``stationary``."""
        return "stationary" not in situations

    def volley(
        self, battle: Battle, shooters: Unit, target: Unit, weapon: Weapon
    ) -> Callable[[], None]:
        """``attacks.resolve_battery`` of every model carrying ``weapon``."""
        Core11Game.start(battle)
        profile = read_weapon(weapon)
        control = FireControl("normal")

        def fire() -> None:
            carriers = [m for m in shooters.models for w in m.weapons if w.name == weapon.name]
            # [BLAST] counts the target's models when it is selected, as the odds do.
            battery = Battery(weapon, profile, carriers, target.id, len(target.alive_models))
            state = battle.state
            assert isinstance(state, Core11Game)
            resolve_battery(state, shooters, battery, carriers, control)

        return fire


register_calculator("core11", Core11Calculator)
register_engine_check("core11", Core11EngineCheck)
