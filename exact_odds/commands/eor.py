"""The `eor` command: the effects of removal of each bet, their sum checks and balanced level-1 and
level-2 counts, as tables and as a record."""

from ..core.cards import RANKS
from ..core.numbers import fixed, percent
from ..core.shoe import Shoe
from ..output.blocks import Block, Data, Document, Group, Paragraph, table
from ..records import versioned
from ..studies.removal import RemovalEffects, balanced_tags, betting_correlation


def record_of(result: RemovalEffects) -> dict[str, object]:
    """One bet's effects, exact (fraction strings) and in percent (numbers), with the sum checks and counts."""
    record: dict[str, object] = {
        "expected_value": str(result.expected_value),
        "effects": {rank: None if effect is None else {"exact": str(effect), "percent": float(effect * 100)} for rank, effect in zip(RANKS, result.effects)},
        "weighted_sum": str(result.weighted_sum),
        "one_deck_linear_prediction": str(result.deck_prediction),
        "one_deck_removed_exact": None if result.deck_removed is None else str(result.deck_removed),
    }
    for level in (1, 2):
        tags = balanced_tags(result.effects, level)
        record[f"level_{level}_count"] = {"tags": dict(zip(RANKS, tags)), "betting_correlation": round(betting_correlation(result.effects, tags), 6)}
    return record


def document(results: list[RemovalEffects], shoe: Shoe) -> Document:
    """The effects of each bet with its sum checks and counts; its record and its flat table."""
    blocks: list[Block] = [Paragraph(f"Effects of removing one card, {shoe} (change in expected value per unit bet)")]
    flat: list[list[object]] = []
    for result in results:
        level1, level2 = balanced_tags(result.effects, 1), balanced_tags(result.effects, 2)
        rows = [[rank, "n/a" if effect is None else str(effect), "none held" if effect is None else percent(effect, 5), tag1, tag2]
                for rank, effect, tag1, tag2 in zip(RANKS, result.effects, level1, level2)]
        flat += [[result.bet.name, rank, "" if effect is None else effect, "" if effect is None else fixed(effect * 100, 6), tag1, tag2]
                 for rank, effect, tag1, tag2 in zip(RANKS, result.effects, level1, level2)]
        deck = "n/a" if result.deck_removed is None else percent(result.deck_removed, 6)
        blocks.append(Group((
            Paragraph(f"{result.bet.name}: expected value {percent(result.expected_value, 4)}"),
            table(["rank", "effect (exact)", "effect", "level 1", "level 2"], rows),
            Paragraph(f"sum of count x effect: {result.weighted_sum} (exact); one deck removed: linear prediction "
                      f"{percent(result.deck_prediction, 6)}, exact {deck}; betting correlation: level 1 "
                      f"{betting_correlation(result.effects, level1):.3f}, level 2 {betting_correlation(result.effects, level2):.3f}"),
        )))
    record = versioned("eor", {"shoe": str(shoe), "bets": {result.bet.name: record_of(result) for result in results}})
    return Document(tuple(blocks), Data(record, table(["bet", "rank", "effect", "effect_percent", "level_1_tag", "level_2_tag"], flat)))
