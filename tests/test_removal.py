"""Effects of removal, exactly, and the counts derived from them."""

from fractions import Fraction
from itertools import product
from math import lcm

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exact_odds import analyze
from exact_odds.bets.bets import catalog
from exact_odds.core.cards import RANKS, Card
from exact_odds.cli.commands import main
from exact_odds.core.policy import resolve
from exact_odds.studies.removal import balanced_tags, betting_correlation, removal_effects
from exact_odds.core.rules import PUNTO_BANCO
from exact_odds.core.shoe import Shoe

CATALOG = catalog()
PUNTO = resolve(PUNTO_BANCO)
BETS = [CATALOG[name] for name in ("banker", "player", "tie", "dragon_7", "panda_8", "player_pair", "either_pair")]


def test_effects_equal_direct_computation_on_the_depleted_shoes():
    shoe = Shoe.decks(6)
    effects = removal_effects(shoe, BETS, PUNTO)
    for rank_index, rank in enumerate(RANKS):
        depleted = analyze(Shoe(shoe.rank_counts, None, "6 decks").remove((Card(rank),)), BETS)
        full = analyze(shoe, BETS)
        for result, after, before in zip(effects, depleted.bets, full.bets):
            assert result.effects[rank_index] == after.expected_value - before.expected_value
            assert isinstance(result.effects[rank_index], Fraction)


@settings(max_examples=10)
@given(st.lists(st.integers(1, 12), min_size=13, max_size=13))
def test_count_weighted_effects_sum_to_exactly_zero(counts):
    """Removing an unseen card at random is fair: sum_r c_r EOR_r = 0 exactly, for any shoe."""
    shoe = Shoe(tuple(counts), None, "drawn")
    for result in removal_effects(shoe, BETS, PUNTO):
        assert result.weighted_sum == 0, result.bet.name


def test_whole_deck_removal_is_the_second_order_term():
    banker = removal_effects(Shoe.decks(8), [CATALOG["banker"]], PUNTO)[0]
    assert banker.deck_prediction == 0
    direct = analyze(Shoe.decks(7), [CATALOG["banker"]]).bets[0].expected_value - analyze(Shoe.decks(8), [CATALOG["banker"]]).bets[0].expected_value
    assert banker.deck_removed == direct != 0


def test_tags_are_balanced_and_follow_the_effects():
    dragon = removal_effects(Shoe.decks(8), [CATALOG["dragon_7"]], PUNTO)[0]
    for level in (1, 2):
        tags = balanced_tags(dragon.effects, level)
        assert sum(tags) == 0 and max(map(abs, tags)) <= level
        assert betting_correlation(dragon.effects, tags) > 0.8
    # Removing 8s and 9s helps the Dragon 7 most, removing 6s and 7s hurts it most (Jacobson's count).
    level2 = dict(zip(RANKS, balanced_tags(dragon.effects, 2)))
    assert level2["8"] == level2["9"] == 2 and level2["6"] < 0 and level2["7"] < 0


def test_eor_command_formats(capsys):
    for fmt in ("table", "json", "csv", "markdown"):
        with pytest.raises(SystemExit) as exit_info:
            main(["eor", "--decks", "8", "--bets", "banker,dragon_7", "--format", fmt])
        assert exit_info.value.code == 0
        assert "dragon_7" in capsys.readouterr().out


def test_suited_bets_remove_a_card_of_the_rank_at_random(capsys):
    """Perfect pairs: the effect of removing one ace is the average, over the aces' suits in
    proportion to their counts, of removing that ace (checked on a lopsided per-card shoe)."""
    shoe = Shoe.parse("As=3,Ah=1,Kd=4,5c=2,5s=1,9h=2")
    bet = CATALOG["perfect_pair"]
    effect = removal_effects(shoe, [bet], PUNTO)[0].effects[0]
    base = analyze(shoe, [bet]).bets[0].expected_value
    spades = analyze(shoe.remove((Card("A", "S"),)), [bet]).bets[0].expected_value
    hearts = analyze(shoe.remove((Card("A", "H"),)), [bet]).bets[0].expected_value
    assert effect == Fraction(3, 4) * spades + Fraction(1, 4) * hearts - base
    with pytest.raises(SystemExit) as exit_info:
        main(["eor", "--shoe", "A=8,K=8", "--bets", "perfect_pair"])
    assert exit_info.value.code == 2 and "per-card counts" in capsys.readouterr().err


def test_a_published_8_deck_table_holds_the_9_deck_effects():
    """Stephen How's Dragon Bonus table (published.toml, marked known-wrong) prints the 9-deck effects."""
    from exact_odds.studies.figures import parse_printed, published_figures

    printed = {figure.rank: parse_printed(figure.value).value for figure in published_figures() if figure.id.startswith("discountgambling-net-dragon_bonus")}
    nine = removal_effects(Shoe.decks(9), [CATALOG["dragon_bonus_player"]], PUNTO)[0].effects
    for rank, value in printed.items():
        assert round(nine[RANKS.index(rank)], 6) == value


def best_correlation(effects, level):
    """By brute force: the largest (sum effect x tag)^2 / sum tag^2 over balanced tags of each effect's
    sign, equal for equal effects (for balanced tags, the square of the betting correlation up to a
    factor of the effects alone). Every choice of a tag per distinct effect is tried (3^10 of them at
    level 2 on 8 decks); each is scored in integers, the effects over their common denominator and
    the ranks sharing an effect as its multiplicity, so the same exhaustive search takes 0.1 s, not 6."""
    values = sorted({effect or Fraction(0) for effect in effects})
    multiplicity = [sum((effect or Fraction(0)) == value for effect in effects) for value in values]
    denominator = lcm(*(value.denominator for value in values))
    numerators = [int(value * denominator) for value in values]
    best_top, best_bottom = 0, 1
    for chosen in product(*(range(level + 1) if value > 0 else range(-level, 1) if value < 0 else (0,) for value in values)):
        if sum(m * c for m, c in zip(multiplicity, chosen)) == 0 and any(chosen):
            top = sum(m * c * n for m, c, n in zip(multiplicity, chosen, numerators)) ** 2
            bottom = sum(m * c * c for m, c in zip(multiplicity, chosen))
            if top * best_bottom > best_top * bottom:
                best_top, best_bottom = top, bottom
    return Fraction(best_top, best_bottom * denominator**2)


def score(effects, tags):
    return sum((tag * (effect or 0) for effect, tag in zip(effects, tags)), Fraction(0)) ** 2 / sum(tag * tag for tag in tags)


@pytest.mark.parametrize("name", ["banker", "player", "tie", "dragon_7", "panda_8"])
def test_equal_effects_get_equal_tags_on_8_decks(name):
    """On 8 decks T, J, Q and K have the same exact effect (for the tie 32585047424/63533708238975): one
    tag. The tags are balanced, of their effects' signs, and correlate best with the effects."""
    effects = removal_effects(Shoe.decks(8), [CATALOG[name]], PUNTO)[0].effects
    assert effects[9] == effects[10] == effects[11] == effects[12]
    for level in (1, 2):
        tags = balanced_tags(effects, level)
        assert all(tags[one] == tags[other] for one in range(13) for other in range(13) if effects[one] == effects[other])
        assert sum(tags) == 0 and max(map(abs, tags)) == level
        assert all(tag * effect >= 0 for tag, effect in zip(tags, effects))
        assert score(effects, tags) == best_correlation(effects, level)
        assert betting_correlation(effects, tags) > 0.85


def test_tie_tags_on_8_decks():
    tie = removal_effects(Shoe.decks(8), [CATALOG["tie"]], PUNTO)[0].effects
    assert tie[9] == Fraction(32585047424, 63533708238975)
    assert dict(zip(RANKS, balanced_tags(tie, 1))) == {"A": 0, "2": -1, "3": -1, "4": -1, "5": -1, "6": -1, "7": -1,
                                                       "8": 1, "9": 1, "T": 1, "J": 1, "Q": 1, "K": 1}


def test_no_balanced_count_follows_one_rank_against_twelve_equal_ones():
    """Twelve equal effects share a tag t, so balance needs the thirteenth at -12t: beyond level 2,
    and the only balanced count is zero."""
    effects = (Fraction(1),) * 8 + (Fraction(-12),) + (Fraction(1),) * 4
    assert balanced_tags(effects, 1) == balanced_tags(effects, 2) == (0,) * 13
    assert betting_correlation(effects, (0,) * 13) == 0.0


def test_a_rank_the_shoe_lacks_is_tagged_0():
    effects = (Fraction(3), None, Fraction(-1), Fraction(-2)) + (None,) * 9
    assert balanced_tags(effects, 2) == (2, 0, -1, -1) + (0,) * 9
