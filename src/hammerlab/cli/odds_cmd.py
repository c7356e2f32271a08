"""``hammerlab odds``: exact distributions for one weapon profile against one unit.

The same options serve every edition; what a number means follows the
edition's datasheets (AP ``-1`` in core11, AP ``4`` or ``-`` in the Waffle
Edition), as :class:`~hammerlab.analysis.odds.PlainQuestion` documents.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from hammerlab.cli.common import DEFAULT_RULESET, OnceCommand, console, fail, print_table
from hammerlab.errors import HammerlabError

if TYPE_CHECKING:
    from hammerlab.analysis.odds import OddsResult
    from hammerlab.engine.datasheet import Datasheet


SITUATION_HELP = (
    "a fact of the moment; core11: half-range, cover, stationary, short-move, charged, "
    "indirect, spotted, close-quarters, engaged-target; "
    "waffle: snap, half-range, moved, relentless, gone-to-ground, eternal-warrior, "
    "preferred-enemy, monster-hunter, side-armour, rear-armour; repeatable"
)
"""Each edition's situation names, written out rather than asked of the
calculators, which would import both editions whenever any command runs
(``tests/test_cli_manners.py`` checks the two agree)."""


def register(app: typer.Typer) -> None:
    """Add the ``odds`` command to ``app``."""

    @app.command(cls=OnceCommand)
    def odds(
        ruleset: Annotated[
            str,
            typer.Option(
                "--ruleset",
                "-r",
                metavar="NAME",
                help=f"waffle or core11 (default {DEFAULT_RULESET})",
            ),
        ] = DEFAULT_RULESET,
        attacker: Annotated[
            str | None, typer.Option(metavar="UNIT", help="library form: attacking unit")
        ] = None,
        weapon: Annotated[
            str | None, typer.Option(metavar="WEAPON", help="library form: its weapon")
        ] = None,
        profile: Annotated[
            str | None, typer.Option(metavar="NAME", help="the weapon's profile")
        ] = None,
        models: Annotated[
            str | None,
            typer.Option(
                metavar="N",
                help="models firing (library: default all carrying it, at most as many as "
                "the unit fields; plain: 1)",
            ),
        ] = None,
        target: Annotated[
            str | None, typer.Option(metavar="UNIT", help="library form: target unit")
        ] = None,
        attacks: Annotated[
            str | None,
            typer.Option(
                "--attacks",
                "--shots",
                metavar="N|DICE",
                help="plain: attacks of one model, times --models (core11 3 or D6+1; "
                "waffle shots, 3 or 2/4, 1 when neither this nor --type gives them)",
            ),
        ] = None,
        weapon_type: Annotated[
            str | None,
            typer.Option(
                "--type",
                metavar="TYPE",
                help="waffle: weapon type (Heavy, Rapid Fire, Salvo, Assault)",
            ),
        ] = None,
        bs: Annotated[
            str | None,
            typer.Option(metavar="N", help="plain: BS; core11 3 (or 3+), waffle BS 4 (not 4+)"),
        ] = None,
        strength: Annotated[str | None, typer.Option(metavar="N", help="plain: Strength")] = None,
        ap: Annotated[
            str | None,
            typer.Option(
                metavar="AP",
                help="plain: AP as written; core11 0 or --ap=-1, waffle 1-6 or - (none)",
            ),
        ] = None,
        damage: Annotated[
            str | None, typer.Option(metavar="N|DICE", help="plain, core11: Damage (1, D3)")
        ] = None,
        toughness: Annotated[str | None, typer.Option(metavar="N", help="plain: Toughness")] = None,
        save: Annotated[
            str | None, typer.Option(metavar="N|-", help="plain: Sv, 3 for 3+; - for none")
        ] = None,
        wounds: Annotated[str | None, typer.Option(metavar="N", help="plain: W per model")] = None,
        target_models: Annotated[
            str | None, typer.Option(metavar="N", help="models in the target")
        ] = None,
        invulnerable: Annotated[
            str | None, typer.Option(metavar="N", help="invulnerable save")
        ] = None,
        cover: Annotated[
            str | None, typer.Option(metavar="N", help="waffle: cover save, 4 for 4+")
        ] = None,
        hits: Annotated[
            str | None,
            typer.Option(metavar="N", help="waffle: hits, no roll To Hit (templates, blasts)"),
        ] = None,
        feel_no_pain: Annotated[
            str | None, typer.Option(metavar="N", help="Feel No Pain N+")
        ] = None,
        keyword: Annotated[
            list[str] | None,
            typer.Option(
                metavar="KEYWORD",
                help="weapon keyword (sustained hits 1; twin-linked, poisoned 4+); repeatable",
            ),
        ] = None,
        target_keyword: Annotated[
            list[str] | None,
            typer.Option(metavar="KEYWORD", help="core11: target keyword; repeatable"),
        ] = None,
        situation: Annotated[
            list[str] | None, typer.Option(metavar="NAME", help=SITUATION_HELP)
        ] = None,
        rule: Annotated[
            list[str] | None,
            typer.Option(
                metavar="NAME=VALUE",
                help="waffle: a rule parameter the odds read (snap_shot_divisor, "
                "snap_shot_minimum_bs, overwhelming_strength); repeatable",
            ),
        ] = None,
        source: Annotated[
            list[Path] | None,
            typer.Option(
                "--from",
                metavar="FILE",
                help="a BattleScribe file whose units --attacker and --target may name "
                "(before the library's); repeatable",
            ),
        ] = None,
        as_json: Annotated[bool, typer.Option("--json", help="print one JSON object")] = False,
    ) -> None:
        """Exact odds of one weapon profile against one unit (library or plain numbers).

        Library form: --attacker, --weapon and --target.
        Plain form: --strength, --ap, --toughness, --save, --wounds, --target-models;
        waffle --bs (or --hits), core11 --attacks, --bs and --damage too.

        Example: hammerlab odds --attacker "Heavy Weapons Squad" --weapon Lascannon \\
        --target "Space Marine Captain"
        """
        from hammerlab.analysis.odds import QuestionError
        from hammerlab.analysis.odds_request import OddsAsk, answer

        ask = OddsAsk(
            ruleset=ruleset, attacker=attacker, weapon=weapon, profile=profile, models=models,
            target=target, attacks=attacks, weapon_type=weapon_type, bs=bs, strength=strength,
            ap=ap, damage=damage, toughness=toughness, save=save, wounds=wounds,
            target_models=target_models, invulnerable=invulnerable, cover=cover, hits=hits,
            feel_no_pain=feel_no_pain, keyword=tuple(keyword or ()),
            target_keyword=tuple(target_keyword or ()), situation=tuple(situation or ()),
            rule=tuple(rule or ()),
        )  # fmt: skip
        try:
            units, refused = _imported(source or ())
            result = answer(ask, units, refused)
        except QuestionError as error:  # what the flags ask cannot be answered: a usage error
            typer.echo(f"error: {error}", err=True)
            raise typer.Exit(2) from None
        except HammerlabError as error:  # a --from file that cannot be read
            raise fail(error) from None
        if as_json:
            typer.echo(json.dumps(result.to_dict(), sort_keys=True))
            return
        _show(result)


def _imported(
    paths: Sequence[Path],
) -> tuple[tuple[Datasheet, ...], dict[str, tuple[str, ...]]]:
    """The units of the BattleScribe files ``--from`` names, in order, and those of them
    that cannot be played with why (as the web page's uploads give
    :func:`~hammerlab.analysis.odds_request.answer` theirs)."""
    from hammerlab.io.battlescribe import import_file

    results = [import_file(path) for path in paths]
    units = tuple(sheet for result in results for sheet in result.datasheets)
    return units, {name: why for result in results for name, why in result.unplayable.items()}


NEGLIGIBLE = 0.00005
"""A chance the table prints as 0.00%: the rows past the last that reads more are one row
(ten Boyz killed of a unit of twenty would be ten rows of zeros)."""


def _show(result: OddsResult) -> None:
    """The distributions as tables."""
    from rich.markup import escape
    from rich.table import Table

    console.print(f"[bold]{escape(result.question)}[/bold] ({result.edition})", soft_wrap=True)
    table = Table("models destroyed", "exactly", "at least")
    at_least = 1.0
    last = len(result.models_killed) - 1
    for killed, p in enumerate(result.models_killed):
        if killed < last and at_least < NEGLIGIBLE:  # the rest all read 0.00%: one row
            table.add_row(f"{killed} to {last}", "0.00% each", f"{max(0.0, at_least):.2%}")
            break
        table.add_row(str(killed), f"{p:.2%}", f"{max(0.0, at_least):.2%}")
        at_least -= p
    print_table(table)
    console.print(
        f"mean models destroyed {result.mean_models_killed:.3f}; "
        f"unit destroyed {result.p_unit_destroyed:.2%}",
        soft_wrap=True,
    )
    means = ", ".join(f"{k.replace('_', ' ')} {v:.3f}" for k, v in result.means.items())
    console.print(f"mean {means}", soft_wrap=True)
    if result.chances:
        named = result.chance_names
        chances = "; ".join(
            f"{named.get(k, k.replace('_', ' '))} {v:.2%}" for k, v in result.chances.items()
        )
        console.print(f"chance of {chances}", soft_wrap=True)
    for note in result.notes:
        console.print(f"note: {note}", markup=False, soft_wrap=True)
