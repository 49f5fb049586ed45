"""Table profiles (issue 33): presets, a user's TOML file, the round trip, and every refusal naming its field."""

import re
from fractions import Fraction

import pytest

from exact_odds.bets.bets import bet_from_record
from exact_odds.bets.profiles import TABLES, ProfileError, TableBet, TableProfile, as_profile, load_profile, load_profiles, profile_toml
from exact_odds.errors import InputError, UnknownName
from exact_odds.studies.sizing import Limits

OWN = bet_from_record({"name": "banker_seven", "description": "Banker wins on 7, \"pays\" 5 to 1 – é",
                       "pays": [{"when": "winner == banker and banker_total == 7", "pays": "5", "event": "banker wins on 7"}]}, "test")


def table(**given: object) -> TableProfile:
    """A small valid table, with ``given`` in place of its fields."""
    fields: dict[str, object] = {"name": "mine", "title": "My table", "bets": ("banker", "player", "tie"), "chip": 5}
    fields.update(given)
    return TableProfile(**fields)  # type: ignore[arg-type]


def test_presets_are_the_common_tables():
    assert list(TABLES) == ["punto_banco", "ez_baccarat", "dragon_bonus", "super_6", "no_commission", "mini_baccarat"]
    offered = {name: [bet.name for bet in profile.bets] for name, profile in TABLES.items()}
    assert offered == {
        "punto_banco": ["banker", "player", "tie", "player_pair", "banker_pair"],
        "ez_baccarat": ["ez_banker", "player", "tie", "dragon_7", "panda_8"],
        "dragon_bonus": ["banker", "player", "tie", "dragon_bonus_player", "dragon_bonus_banker"],
        "super_6": ["no_commission_banker", "player", "tie", "super_6"],
        "no_commission": ["no_commission_banker", "player", "tie", "player_pair", "banker_pair"],
        "mini_baccarat": ["banker", "player", "tie"],
    }
    for profile in TABLES.values():
        assert profile.source and "example" in profile.note
        assert profile.decks == 8 and profile.burn == "punto_banco" and profile.rebate == 0


def test_ez_baccarat_preset_field_by_field():
    ez = TABLES["ez_baccarat"]
    assert ez.chip == Fraction(5) and ez.cut_card == 16 and ez.cards_behind_cut == 16 and ez.shoe_size == 416
    assert ez.minimum == {"ez_banker": 10, "player": 10, "tie": 5, "dragon_7": 5, "panda_8": 5}
    assert ez.maximum == {"ez_banker": 3000, "player": 3000, "tie": 500, "dragon_7": 100, "panda_8": 100}
    assert all(type(amount) is Fraction for amount in [*ez.minimum.values(), *ez.maximum.values()])
    nets = {bet.name: [row.pays.net for row in bet.rows] for bet in ez.pay_tables}
    assert nets == {"ez_banker": [0, 1, 0], "player": [1, 0], "tie": [8], "dragon_7": [40], "panda_8": [25]}
    assert not ez.needs_suits and ez.rebate_share == 0


def test_penetration_gives_the_cards_behind_the_cut_card():
    assert TABLES["no_commission"].penetration == Fraction(7, 8)
    assert TABLES["no_commission"].cards_behind_cut == 52  # 416 - 7/8 of 416 = 416 - 364
    assert table(decks=6, penetration="3/4").cards_behind_cut == 78  # 312 - 234


def test_main_bet_pays_set_the_rules_and_the_pay_tables():
    mine = table(commission="4", tie_pays=9, rebate="1.5")
    assert (mine.draw_rules.commission, mine.draw_rules.tie_pays) == (Fraction(4), Fraction(9))
    assert [row.pays.net for row in mine.pay_tables[0].rows] == [Fraction(24, 25), 0]
    assert [row.pays.net for row in mine.pay_tables[2].rows] == [Fraction(9)]
    assert mine.rebate_share == Fraction(3, 200)
    assert TABLES["mini_baccarat"].draw_rules.commission == 5 and TABLES["mini_baccarat"].draw_rules.tie_pays == 8


def test_limits_for_sizing_are_built_from_a_profile():
    ez = TABLES["ez_baccarat"]
    limits = Limits(minimum=ez.minimum, maximum=ez.maximum, unit=ez.chip).checked(["dragon_7"], [bet.name for bet in ez.bets])
    assert (limits.minimum, limits.maximum, limits.unit) == ({"dragon_7": Fraction(5)}, {"dragon_7": Fraction(100)}, Fraction(5))


def test_round_trip_of_every_preset_and_of_an_own_profile():
    for profile in TABLES.values():
        assert load_profile(profile_toml(profile), "copy.toml") == profile
    own = table(bets=("banker", "player", TableBet("banker_seven", 5, "25", ("5",))), own_bets=(OWN,), commission="5/2",
                penetration="0.75", decks=6, rebate=1, burn="none", note='a "quoted" note – with é', source="me")
    copy = load_profile(profile_toml(own), "own.toml")
    assert copy == own and copy.pay_tables == own.pay_tables and copy.own_bets == (OWN,)
    assert copy.commission == Fraction(5, 2) and copy.penetration == Fraction(3, 4) and copy.minimum == {"banker_seven": 5}


def test_profile_toml_writes_the_placard():
    text = profile_toml(table(bets=("banker", "player", TableBet("tie", 5, 100, ("8",))), cut_card=16))
    assert text == (
        "# exact_odds table profile (docs/tables.md): the bets a table offers, its limits and chips, its shoe.\n"
        "[[table]]\nname = \"mine\"\ntitle = \"My table\"\nrules = \"punto_banco\"\nchip = \"5\"\nrebate = \"0\"\n"
        "decks = 8\nburn = \"punto_banco\"\ncut_card = 16        # cards behind the cut card\n"
        "\n[table.bets.banker]\n\n[table.bets.player]\n\n[table.bets.tie]\nminimum = \"5\"\nmaximum = \"100\"\npays = [\"8\"]\n")


def test_to_dict_is_the_json_of_the_tables_route():
    mine = table(bets=("ez_banker", "player", TableBet("dragon_7", 5, 100)), cut_card=14)
    assert mine.to_dict() == {
        "name": "mine", "title": "My table", "source": "", "note": "", "rules": "punto_banco", "commission": None, "tie_pays": None,
        "decks": 8, "chip": "5", "rebate": "0", "burn": "punto_banco", "cut_card": 14, "penetration": None, "cards_behind_cut": 14,
        "needs_suits": False,
        "bets": [
            {"name": "ez_banker", "description": "EZ Baccarat banker (no commission): a banker win with a three-card 7 pushes",
             "pays": [{"event": "banker wins with a three-card 7", "pays": "push"}, {"event": "banker wins otherwise", "pays": "1"},
                      {"event": "tie", "pays": "push"}], "minimum": None, "maximum": None},
            {"name": "player", "description": "Player wins: pays 1 to 1; a tie pushes",
             "pays": [{"event": "player wins", "pays": "1"}, {"event": "tie", "pays": "push"}], "minimum": None, "maximum": None},
            {"name": "dragon_7", "description": "Dragon 7 (EZ Baccarat): banker wins with a three-card 7, pays 40 to 1",
             "pays": [{"event": "banker wins with a three-card 7", "pays": "40"}], "minimum": "5", "maximum": "100"},
        ],
    }
    assert table(bets=("banker", "player", "perfect_pair")).needs_suits


REFUSED = [
    ({"bets": ("banker", "player", "dragon7")}, "bets", "table 'mine': bets: unknown bet 'dragon7'; did you mean dragon_7?"),
    ({"bets": ("banker", "player", "nothing_like_it")}, "bets", "table 'mine': bets: unknown bet 'nothing_like_it'"),
    ({"bets": ("banker_4pct", "player")}, "bets", "table 'mine': bets: banker_4pct is a catalog name for a main bet at another pay: "
                                                  "offer banker, with commission = \"4\""),
    ({"bets": ("banker", "player", "tie_9to1")}, "bets", "offer tie, with tie_pays = \"9\""),
    ({"bets": ("banker", "ez_banker", "player")}, "bets", "a table offers one banker bet (banker, ez_banker, no_commission_banker) "
                                                          "and the player bet, not banker, ez_banker, player"),
    ({"bets": ("banker", "tie")}, "bets", "and the player bet, not banker, tie"),
    ({"bets": ("banker", "player", "player")}, "bets", "table 'mine': bets: player is offered twice"),
    ({"bets": ()}, "bets", "table 'mine': bets: must name the bets the table offers"),
    ({"bets": "banker,player"}, "bets", "must name the bets the table offers"),
    ({"bets": ("banker", "player", TableBet("tie", 10, 5))}, "minimum", "table 'mine': minimum: the minimum for tie (10) is above its maximum (5)"),
    ({"bets": ("banker", "player", TableBet("tie", 0))}, "minimum", "the minimum for tie must be positive, not 0"),
    ({"bets": ("banker", "player", TableBet("tie", 5, "102.5"))}, "maximum", "the maximum for tie (205/2) is not a whole number of chips of 5"),
    ({"bets": ("banker", "player", TableBet("tie", 2.5))}, "minimum", "minimum: must be an exact number (an int or a Fraction), not 2.5"),
    ({"bets": ("banker", "player", TableBet("dragon_7", pays=("30",)))}, "pays",
     "pays: dragon_7 pays 40 (its pay table's rows), not 30: a table that pays otherwise offers a bet of its own"),
    ({"bets": ("banker", "player", TableBet("tie", pays=("8", "push")))}, "pays", "tie pays 8 (its pay table's rows), not 8, push"),
    ({"bets": ("banker", "player", TableBet("tie", pays=("eight",)))}, "pays", "pays: tie: bad pay 'eight'"),
    ({"tie_pays": 9, "bets": ("banker", "player", TableBet("tie", pays=("8",)))}, "pays", "tie pays 9 (its pay table's rows), not 8"),
    ({"chip": 0}, "chip", "table 'mine': chip: must be a positive amount (the smallest chip), not 0"),
    ({"chip": 2.5}, "chip", "chip: must be an exact number (an int or a Fraction), not 2.5"),
    ({"rebate": 100}, "rebate", "table 'mine': rebate: must be a percentage of losses from 0 to below 100, not 100"),
    ({"rebate": "-1"}, "rebate", "rebate: must be a percentage of losses from 0 to below 100, not -1"),
    ({"commission": 100}, "commission", "commission: must be a percentage from 0 to below 100, not 100"),
    ({"commission": 5, "bets": ("ez_banker", "player")}, "commission",
     "table 'mine': commission: sets the banker bet's pay, and the table does not offer the banker bet"),
    ({"tie_pays": 9, "bets": ("banker", "player")}, "tie_pays", "tie_pays: sets the tie bet's pay, and the table does not offer the tie bet"),
    ({"tie_pays": 0}, "tie_pays", "tie_pays: must be a positive pay such as 8 or 9, not 0"),
    ({"decks": 0}, "decks", "table 'mine': decks: must be a whole number of decks from 1 to 100, not 0"),
    ({"decks": True}, "decks", "decks: must be a whole number of decks from 1 to 100, not True"),
    ({"burn": "macau"}, "burn", "table 'mine': burn: must be one of punto_banco, none, not 'macau'"),
    ({"decks": 1, "cut_card": 36}, "cut_card", "table 'mine': cut_card: 36 cards behind the cut card leave 16 of the 52 before it, "
                                               "and the burn (up to 11 cards) and one coup (6) need 17"),
    ({"decks": 1, "cut_card": 47, "burn": "none"}, "cut_card", "cut_card: 47 cards behind the cut card leave 5 of the 52 before it, "
                                                               "and the burn (up to 0 cards) and one coup (6) need 6"),
    ({"cut_card": -1}, "cut_card", "cut_card: must be a whole number of cards behind the cut card, not -1"),
    ({"cut_card": 16, "penetration": "7/8"}, "cut_card", "give the cut card's place once: as cards behind it (cut_card) or as a penetration, not both"),
    ({"penetration": "0.9"}, "penetration", "table 'mine': penetration: 9/10 of 416 cards is 1872/5 cards, not a whole number: "
                                            "give cut_card (the cards behind it)"),
    ({"penetration": 0}, "penetration", "must be the share of the shoe dealt before the cut card, above 0 and at most 1, not 0"),
    ({"decks": 1, "penetration": "1/4"}, "penetration", "1/4 of 52 cards leaves 13 before the cut card, and the burn (up to 11 cards) "
                                                        "and one coup (6) need 17"),
    ({"name": "My Table"}, "name", "table 'My Table': name: must be lower-case letters, digits and _ (at most 60), starting with a letter"),
    ({"title": " "}, "title", "table 'mine': title: must be a non-empty line of text, not ' '"),
    ({"title": "two\nlines"}, "title", "title: must be one line of text, without control characters"),
    ({"source": "x" * 1001}, "source", "source: is 1,001 characters long; at most 1,000"),
    ({"rules": "punto_bank"}, "rules", "table 'mine': rules: 'punto_bank' is not a preset's name (punto_banco, baccarat_gold, "
                                       "chemin_de_fer_a, chemin_de_fer_b2, chemin_de_fer_b3); did you mean punto_banco?"),
    ({"own_bets": (OWN,)}, "bet", "table 'mine': bet: the table's own bet 'banker_seven' is not among the bets it offers"),
    ({"own_bets": (OWN, OWN), "bets": ("banker", "player", "banker_seven")}, "bet", "the table's own bet 'banker_seven' is given twice"),
    ({"own_bets": (bet_from_record({"name": "dragon_7", "pays": [{"when": "winner == banker", "pays": "30"}]}, "t"),),
      "bets": ("banker", "player", "dragon_7")}, "bet", "the table's own bet 'dragon_7' takes the name of a catalog bet, "
                                                         "whose pay table is the catalog's: give the table's own pay table a name of its own"),
    ({"own_bets": OWN}, "bet", "the table's own bets must be a sequence of Bet"),
]


@pytest.mark.parametrize("given, field, message", REFUSED, ids=[f"{field}-{index}" for index, (_, field, _) in enumerate(REFUSED)])
def test_refusals_are_one_line_naming_the_field(given, field, message):
    with pytest.raises(ProfileError, match=("^" if message.startswith("table ") else "") + re.escape(message)) as refused:
        table(**given)
    assert "\n" not in str(refused.value) and refused.value.parameter == refused.value.field == field


def test_a_users_profile_file():
    text = '''
[[table]]
name = "club"
title = "The club's EZ table"
tie_pays = "9"
chip = 5
cut_card = 20

[table.bets.banker]
[table.bets.player]
[table.bets.tie]
maximum = 500
[table.bets.banker_seven]
minimum = "5"
maximum = "50"
pays = [5]

[[table.bet]]
name = "banker_seven"
description = "Banker wins on 7"
pays = [{ when = "winner == banker and banker_total == 7", pays = "5" }]
'''
    club = load_profile(text, "club.toml")
    assert [bet.name for bet in club.pay_tables] == ["banker", "player", "tie", "banker_seven"]
    assert club.draw_rules.tie_pays == 9 and club.maximum == {"tie": 500, "banker_seven": 50} and club.bets[3].pays == ("5",)
    assert load_profile(profile_toml(club), "again.toml") == club


FILE_REFUSED = [
    ("[[table]]\nname = \"x\"\ntitle = \"X\"\nchip = 2.5\n[table.bets.banker]\n", "chip",
     "table file f.toml, table 'x': chip: expected an exact number such as \"5\" or \"2.5\" (text) or 5, not 2.5"),
    ("[[table]]\nname = \"x\"\ntitle = \"X\"\ncolour = \"green\"\n", "colour", "table file f.toml, table 'x': colour: unknown key (expected name, title"),
    ("[[table]]\nname = \"x\"\ntitle = \"X\"\n", "bets", "table file f.toml, table 'x': bets: missing: one [table.bets.NAME] table per bet offered"),
    ("[[table]]\ntitle = \"X\"\n[table.bets.banker]\n", "name", "table file f.toml, table None: name: missing"),
    ("[[table]]\nname = \"x\"\ntitle = \"X\"\ndecks = \"8\"\n[table.bets.banker]\n", "decks", "decks: expected a whole number such as 8, not '8'"),
    ("[[table]]\nname = \"x\"\ntitle = \"X\"\n[table.bets.banker]\nlimit = 5\n", "bets", "bets: banker: a bet offered is a table of minimum, maximum and pays"),
    ("[[table]]\nname = \"x\"\ntitle = \"X\"\n[table.bets.banker]\npays = \"19/20\"\n", "pays", "pays: banker: pays is a list of its pay table's pays"),
    ("[[table]]\nname = \"x\"\ntitle = \"X\"\n[table.bets.banker]\n[table.bets.player]\n[table.bets.drgon_7]\n", "bets",
     "table file f.toml, table 'x': bets: unknown bet 'drgon_7'; did you mean dragon_7?"),
    ("[[table]]\nname = \"x\"\ntitle = \"X\"\nbet = 5\n[table.bets.banker]\n", "bet", "bet: the table's own bets are [[table.bet]] records"),
]


@pytest.mark.parametrize("text, field, message", FILE_REFUSED, ids=[field for _, field, _ in FILE_REFUSED])
def test_file_refusals_name_the_file_the_table_and_the_field(text, field, message):
    with pytest.raises(ProfileError, match=("^" if message.startswith("table ") else "^table file f.toml, .*") + re.escape(message)) as refused:
        load_profile(text, "f.toml")
    assert refused.value.parameter == field


def test_file_level_refusals():
    one = "[[table]]\nname = \"{}\"\ntitle = \"X\"\n[table.bets.banker]\n[table.bets.player]\n"
    with pytest.raises(InputError, match=r"^table file f.toml: holds 2 tables; a profile file holds one \(give one \[\[table\]\]\)$"):
        load_profile(one.format("a") + one.format("b"), "f.toml")
    with pytest.raises(InputError, match="^table file f.toml: two tables are named 'a'$"):
        load_profiles(one.format("a") + one.format("a"), "f.toml")
    with pytest.raises(InputError, match="^table file f.toml: expected \\[\\[table\\]\\] records only, not 'name'$"):
        load_profile("name = \"a\"\n", "f.toml")
    with pytest.raises(InputError, match="^table file f.toml: not valid TOML: "):
        load_profile("[[table]\n", "f.toml")
    with pytest.raises(InputError, match="^table file f.toml: bet 'x', row 1: bad pay 'many'"):
        load_profile(one.format("a") + "[table.bets.x]\n[[table.bet]]\nname = \"x\"\npays = [{ when = \"winner == tie\", pays = \"many\" }]\n", "f.toml")


def test_presets_and_files_by_name(tmp_path):
    assert as_profile("ez_baccarat") is TABLES["ez_baccarat"] and as_profile(TABLES["super_6"]) is TABLES["super_6"]
    path = tmp_path / "mine.toml"
    path.write_text(profile_toml(table()), encoding="utf-8")
    assert as_profile(str(path)) == table()
    with pytest.raises(UnknownName, match=r"^no table 'ez_bacarat' \(the tables: punto_banco, ez_baccarat, .*\); did you mean ez_baccarat or mini_baccarat\?$"):
        TABLES["ez_bacarat"]
    with pytest.raises(InputError, match="^table 'nowhere.toml' is neither a preset .* nor a profile file$"):
        as_profile("nowhere.toml")
    with pytest.raises(InputError, match="^a table is a TableProfile, a preset's name"):
        as_profile(5)  # type: ignore[arg-type]


def test_the_docs_profile_file_loads():
    from pathlib import Path

    page = (Path(__file__).parent.parent / "docs" / "tables.md").read_text(encoding="utf-8")
    club = load_profile(re.search(r"```toml\n(.*?)```", page, flags=re.S)[1], "docs/tables.md")
    assert [bet.name for bet in club.pay_tables] == ["ez_banker", "player", "tie", "dragon_7", "dragon_6"]
    assert (club.draw_rules.tie_pays, club.rebate_share, club.cards_behind_cut) == (9, Fraction(1, 200), 20)
    assert club.minimum == {"ez_banker": 25, "player": 25, "dragon_7": 5, "dragon_6": 5}
    assert [row.pays.net for row in club.pay_tables[4].rows] == [30]
    presets = page.partition("## The presets")[2].partition("## ")[0]
    documented = re.findall(r"^\| `([a-z_0-9]+)` \|", presets, flags=re.M)
    assert documented == list(TABLES)
