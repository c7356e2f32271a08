"""The JSON requests the web API accepts: pydantic models that refuse unknown keys.

Field names follow the CLI flags (``target-models`` or ``target_models`` for
``--target-models``; ``type`` for ``--type``; ``shots`` or ``attacks``, as
``--shots`` is ``--attacks``), and every string and list is bounded, so that a
request is checked before any work is done.
"""

from __future__ import annotations

import json
import math
import re
from typing import Annotated, Any

from pydantic import (
    AliasChoices,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    ModelWrapValidatorHandler,
    PrivateAttr,
    StringConstraints,
    ValidationInfo,
    field_validator,
    model_validator,
)
from pydantic_core import PydanticCustomError

from hammerlab.analysis.odds_request import OddsAsk
from hammerlab.analysis.sweep import seeds_past_store

Short = Annotated[str, StringConstraints(max_length=200)]

_JSON_KINDS = {bool: "true or false", float: "a number with a fraction", list: "a list",
               dict: "an object"}  # fmt: skip


def _as_typed(value: object) -> object:
    """A flag's value as typed on the command line: text, or a JSON whole number read
    as its digits. Anything else is one message naming what was sent (a union of
    text and number would report each branch's failure, in pydantic's words)."""
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    finite = not isinstance(value, float) or math.isfinite(value)
    kind = _JSON_KINDS.get(type(value), type(value).__name__) if finite else json.dumps(value)
    raise PydanticCustomError(
        "flag_value", "give text or a whole number, as typed after the flag, not {kind}",
        {"kind": kind},
    )  # fmt: skip


def _a_turn(value: object) -> object:
    """A game turn to stop after, as ``--stop-after`` takes it: a JSON whole number, 1 or
    more. Anything else is one message saying what was sent (a number, or its kind),
    never pydantic's words for each way it failed."""
    if value is None or (type(value) is int and value >= 1):
        return value
    sent = str(value) if type(value) in (int, float) else _JSON_KINDS.get(type(value), "text")
    raise PydanticCustomError(
        "turn", "a game turn to stop after is a whole number, 1 or more, not {sent}",
        {"sent": sent},
    )  # fmt: skip


Flag = Annotated[Short | None, BeforeValidator(_as_typed)]
"""A value as typed after a flag; a JSON number is read as its digits."""
Flags = Annotated[list[Short], Field(max_length=20)]
Seed = Annotated[int, Field(ge=0)]
"""A seed, as ``--seed`` takes it: 0 or more (a negative seed would replay its positive twin)."""

MAX_RUNS = 400
"""Paired battles per arm a lab job may ask for."""
MAX_TRIALS = 20_000
"""Engine volleys an odds check may ask for."""


class _Strict(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
        alias_generator=lambda name: name.replace("_", "-"),
        validate_by_name=True,
        validate_by_alias=True,
    )

    @model_validator(mode="before")
    @classmethod
    def _one_spelling(cls, data: Any) -> Any:
        """A field taken by two names (``target-models`` or ``target_models``, ``type``
        or ``weapon_type``) may be given once: both were "Extra inputs are not
        permitted", as if the second were no field."""
        if not isinstance(data, dict):
            return data
        for name, field in cls.model_fields.items():
            if field.alias not in (None, name) and field.alias in data and name in data:
                raise PydanticCustomError(
                    "two_spellings",
                    "{alias} and {name} are one field: give one",
                    {"alias": field.alias, "name": name},
                )
        return data


class OddsRequest(_Strict):
    """``POST /api/odds``: the flags of ``hammerlab odds``, and ``upload`` (the id
    of a BattleScribe file sent to ``/api/upload``) for units of that file."""

    ruleset: Short = OddsAsk.ruleset
    """The CLI's default ruleset, as ``OddsAsk`` gives it."""
    attacker: Flag = None
    weapon: Flag = None
    profile: Flag = None
    models: Flag = None
    target: Flag = None
    attacks: Flag = Field(default=None, validation_alias=AliasChoices("attacks", "shots"))
    weapon_type: Flag = Field(default=None, alias="type")
    bs: Flag = None
    strength: Flag = None
    ap: Flag = None
    damage: Flag = None
    toughness: Flag = None
    save: Flag = None
    wounds: Flag = None
    target_models: Flag = None
    invulnerable: Flag = None
    cover: Flag = None
    hits: Flag = None
    feel_no_pain: Flag = None
    keyword: Flags = []
    target_keyword: Flags = []
    situation: Flags = []
    rule: Flags = []
    upload: Annotated[str, StringConstraints(max_length=40)] | None = None

    @model_validator(mode="before")
    @classmethod
    def _shots_once(cls, data: Any) -> Any:
        """``shots`` and ``attacks`` are one field: a request may give it once."""
        if isinstance(data, dict) and "shots" in data and "attacks" in data:
            raise PydanticCustomError(
                "shots_twice",
                "shots and attacks are one field (the CLI's --shots is --attacks): give one",
            )
        return data

    def ask(self) -> OddsAsk:
        """The question as the CLI would build it from the same flags."""
        return OddsAsk(
            ruleset=self.ruleset,
            attacker=self.attacker,
            weapon=self.weapon,
            profile=self.profile,
            models=self.models,
            target=self.target,
            attacks=self.attacks,
            weapon_type=self.weapon_type,
            bs=self.bs,
            strength=self.strength,
            ap=self.ap,
            damage=self.damage,
            toughness=self.toughness,
            save=self.save,
            wounds=self.wounds,
            target_models=self.target_models,
            invulnerable=self.invulnerable,
            cover=self.cover,
            hits=self.hits,
            feel_no_pain=self.feel_no_pain,
            keyword=tuple(self.keyword),
            target_keyword=tuple(self.target_keyword),
            situation=tuple(self.situation),
            rule=tuple(self.rule),
        )

    @staticmethod
    def fields_named(message: str) -> str:
        """An odds error as the API's client reads it: each ``hammerlab odds`` flag
        it names (``--shots``, ``--rule``) written as the request's field (``--from``,
        the CLI's BattleScribe file, as ``upload``, the API's)."""
        return _FLAG.sub(lambda found: _FIELDS.get(found[1], found[0]), message)


_FLAG = re.compile(r"--([a-z][a-z-]*)")
_FIELDS = {
    "from": "upload",
    "shots": "shots",
    **{f.alias or name: f.alias or name for name, f in OddsRequest.model_fields.items()},
}
"""The names ``POST /api/odds`` takes, as written in a request, by the CLI's flag."""


class OddsCheckRequest(OddsRequest):
    """``POST /api/odds/check``: the same question, and how many engine volleys to play."""

    trials: int = Field(default=10_000, ge=100, le=MAX_TRIALS)
    seed: Seed = 1


NOT_BOTH = "name a scenario or an uploaded one, not both"
"""Why a request naming a scenario and an upload is refused, as ``upload: ...``."""


class ScenarioRef(_Strict):
    """A scenario: a name from ``GET /api/scenarios``, or the id of an uploaded one."""

    scenario: Short | None = None
    upload: Annotated[str, StringConstraints(max_length=40)] | None = None

    @field_validator("upload")
    @classmethod
    def _not_both(cls, upload: str | None, info: ValidationInfo) -> str | None:
        """A scenario and an upload at once is refused as the request's other problems
        are, in the same message (a web review: ``/api/lab`` said only that no rule was
        ticked, and the second try that both were named)."""
        if upload is not None and info.data.get("scenario") is not None:
            raise PydanticCustomError("not_both", NOT_BOTH)
        return upload

    @property
    def offered(self) -> str | None:
        """The offered scenario's name (``None`` for an upload, given instead of one):
        what a page's form shows for what it played."""
        return None if self.upload is not None else self.scenario


class LabRequest(ScenarioRef):
    """``POST /api/lab``: ``hammerlab lab``'s ``--rule``, ``--set``, ``--runs`` and ``--seed``."""

    rule: Annotated[list[Short], Field(min_length=1, max_length=10)]
    set: Flags = []
    runs: int = Field(default=50, ge=2, le=MAX_RUNS)
    seed: Seed = 1

    @field_validator("rule", mode="before")
    @classmethod
    def _a_rule(cls, rule: object) -> object:
        """No rule to compare is said in words (a user review: "List should have at
        least 1 item after validation, not 0")."""
        if isinstance(rule, list) and not rule:
            raise PydanticCustomError("no_rule", "tick a rule to compare, or write a --rule flag")
        return rule

    @field_validator("seed")
    @classmethod
    def _seeds_stored(cls, seed: int, info: ValidationInfo) -> int:
        """The seeds a run plays are ones a results store keeps, as ``hammerlab lab``
        checks them with or without ``--out``
        (:func:`~hammerlab.analysis.sweep.seeds_past_store`)."""
        problem = seeds_past_store(seed, info.data.get("runs", 2), "runs", "a seed of")
        if problem is not None:
            raise PydanticCustomError("seed_range", "{problem}", {"problem": problem})
        return seed


class BattleRequest(ScenarioRef):
    """``POST /api/battle``: ``hammerlab battle``'s seed, ``--rule`` and ``--stop-after``
    flags (the last checked against the scenario's turns where it is played)."""

    seed: Seed | None = None
    rule: Flags = []
    stop_after: Annotated[int | None, BeforeValidator(_a_turn)] = None
    _stop_after_as: str = PrivateAttr(default="stop-after")

    @model_validator(mode="wrap")
    @classmethod
    def _stop_after_spelled(
        cls, data: Any, handler: ModelWrapValidatorHandler[BattleRequest]
    ) -> BattleRequest:
        """Keep the name ``stop_after`` was sent by, for the refusals made where it is
        played (a web review: ``"stop_after": 4`` was refused as ``stop-after: ...``)."""
        request = handler(data)
        if isinstance(data, dict) and "stop_after" in data:
            request._stop_after_as = "stop_after"
        return request

    @property
    def stop_after_as(self) -> str:
        """``stop_after``'s name as the request gave it: ``stop-after`` or ``stop_after``,
        as pydantic names it in its own refusals of the field."""
        return self._stop_after_as


class PlayRequest(ScenarioRef):
    """``POST /api/play``: a new game against the AI; ``side`` is the player you play."""

    seed: Seed | None = None
    side: Short | None = None
    rule: Flags = []


class ActionRequest(_Strict):
    """``POST /api/play/{id}``: the index of one of the game's legal actions."""

    action: int = Field(ge=0)
    step: int | None = Field(
        default=None, description="the game's step the client saw (a stale click is refused)"
    )
