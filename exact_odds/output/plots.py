"""Every figure, drawn with matplotlib (the ``plot`` extra) and returned as image bytes.

A figure is rendered in memory and written whole by its caller; matplotlib is imported only here,
and its absence is one clear line.
"""

import io
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

import numpy as np

from ..errors import InputError


def pyplot(purpose: str = "--plot") -> Any:
    """matplotlib's pyplot on a file backend, or a clear error (naming ``purpose``) when the plot extra is missing."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise InputError(f"{purpose} needs matplotlib: pip install 'exact_odds[plot]'") from None
    return plt


SOFTWARE = "exact_odds"
"""What a PNG figure names as its software, undated and unversioned (the same figure gives the same bytes)."""
PNG_MARK = b"tEXtSoftware\x00" + SOFTWARE.encode("ascii")
"""The bytes every PNG drawn here carries (its Software text chunk): a file at a --plot path that
holds them was drawn here, and may be drawn again; any other is the user's (see
:class:`~exact_odds.output.files.FileTarget`)."""
UNDATED = {"png": {"Software": SOFTWARE}, "svg": {"Date": None, "Creator": None}}
"""Per image format, the metadata set or left out so that the same figure gives the same bytes."""


def rendered(figure: Any, fmt: str = "png") -> bytes:
    """The figure as PNG or SVG bytes (closed afterwards); the same figure gives the same bytes
    (an SVG's element ids are hashes of their content with a fixed salt)."""
    import matplotlib

    buffer = io.BytesIO()
    figure.tight_layout()
    with matplotlib.rc_context({"svg.hashsalt": "exact_odds"}):
        figure.savefig(buffer, format=fmt, dpi=110, metadata=UNDATED[fmt])
    pyplot().close(figure)
    return buffer.getvalue()


def simulation_figure(expectations: Any, true_counts: Any, names: Sequence[str], fmt: str = "png") -> bytes:
    """Exact EV against true count, one panel per bet (a sample of at most 20,000 coups)."""
    plt = pyplot()
    shown = slice(None, None, max(1, len(true_counts) // 20000))
    figure, axes = plt.subplots(len(names), 1, figsize=(7, 2.6 * len(names)), squeeze=False)
    for axis, index in zip(axes[:, 0], range(len(names))):
        axis.scatter(true_counts[shown], 100 * np.asarray(expectations)[shown, index], s=2, alpha=0.3)
        axis.axhline(0, color="black", linewidth=0.8)
        axis.set_title(names[index])
        axis.set_xlabel("true count")
        axis.set_ylabel("exact EV (%)")
    return rendered(figure, fmt)


def removal_figure(effects: Sequence[tuple[str, Sequence[Fraction | None]]], ranks: Sequence[str], fmt: str = "png") -> bytes:
    """Effects of removal per rank (``ranks``, their labels), as bars, one panel per bet: (its name,
    its effect of removing one card of each rank; None for a rank the shoe lacks, drawn as none)."""
    plt = pyplot()
    figure, axes = plt.subplots(len(effects), 1, figsize=(7, 2.6 * len(effects)), squeeze=False)
    for axis, (name, changes) in zip(axes[:, 0], effects):
        axis.bar(list(ranks), [100 * float(effect) if effect is not None else 0.0 for effect in changes])
        axis.axhline(0, color="black", linewidth=0.8)
        axis.set_xlabel("rank removed")
        axis.set_ylabel("change in EV (% of a unit)")
        axis.set_title(f"{name}: effect of removing one card")
    return rendered(figure, fmt)


def edge_by_decks_figure(name: str, decks: Sequence[int], edges: Sequence[float], infinite: float, fmt: str = "svg") -> bytes:
    """A bet's house edge (percent) by number of decks, with the infinite deck as a dashed line."""
    plt = pyplot()
    figure, axis = plt.subplots(figsize=(6.4, 3.2))
    axis.plot(list(decks), [100 * edge for edge in edges], marker="o")
    axis.axhline(100 * infinite, color="grey", linestyle="--", linewidth=1, label="infinite deck")
    axis.set_xticks(list(decks))
    axis.set_xlabel("decks")
    axis.set_ylabel("house edge (%)")
    axis.set_title(f"{name}: house edge by number of decks")
    axis.legend()
    return rendered(figure, fmt)


def count_figure(name: str, thresholds: Sequence[int], gains: Sequence[float], errors: Sequence[float], shown: tuple[int, int],
                 fmt: str = "svg") -> bytes:
    """A count's win per shoe (units) when betting at each true count threshold, with one standard
    error, over the thresholds ``shown`` (first, last: those of the table beside it)."""
    plt = pyplot()
    figure, axis = plt.subplots(figsize=(6.4, 3.2))
    axis.errorbar(list(thresholds), list(gains), yerr=list(errors), marker="o", capsize=3)
    axis.set_xlim(shown[0] - 0.5, shown[1] + 0.5)
    axis.set_xticks(list(range(shown[0], shown[1] + 1)))
    axis.axhline(0, color="black", linewidth=0.8)
    axis.set_xlabel("bet at true count at or above")
    axis.set_ylabel("win per shoe (units)")
    axis.set_title(f"{name}: counting simulation")
    return rendered(figure, fmt)


def depth_figure(curves: Mapping[str, tuple[Sequence[int], Sequence[float], Sequence[float]]], fmt: str = "png") -> bytes:
    """P(EV > 0) and E[max(0, EV)] (percent) against the cards left, a line per bet (and the best
    of them): ``curves`` maps each name to its cards left and the two figures."""
    plt = pyplot()
    figure, (chance, gain) = plt.subplots(2, 1, figsize=(7, 6), sharex=True)
    for name, (cards, positive, expected) in curves.items():
        style = {"color": "black", "linestyle": "--"} if name == "best" else {}
        chance.plot(list(cards), [100 * value for value in positive], marker="o", markersize=3, label=name, **style)
        gain.plot(list(cards), [100 * value for value in expected], marker="o", markersize=3, label=name, **style)
    chance.set_ylabel("P(EV > 0) (%)")
    chance.set_title("How often each bet is positive, by cards left")
    chance.legend()
    gain.set_ylabel("E[max(0, EV)] (% of a unit)")
    gain.set_xlabel("cards left in the shoe")
    gain.invert_xaxis()
    return rendered(figure, fmt)


def decision_figure(title: str, information: Sequence[str], bets: Sequence[str], expectations: Sequence[Sequence[float]],
                    chosen: Sequence[int | None], fmt: str = "png") -> bytes:
    """A decision table as a heat map: a row per piece of ``information``, a column per bet, each
    cell the bet's expectation given it (percent, red below zero, green above) and the bet chosen
    framed (a row with none framed: no bet)."""
    plt = pyplot()
    values = 100 * np.asarray(expectations, dtype=float).reshape(len(information), len(bets))
    reach = max(float(np.abs(values).max()), 1e-9)
    figure, axis = plt.subplots(figsize=(min(1.6 + 1.25 * len(bets), 48), min(1.2 + 0.3 * len(information), 30)))
    image = axis.imshow(values, cmap="RdYlGn", vmin=-reach, vmax=reach, aspect="auto")
    for row, column in enumerate(chosen):
        for place, value in enumerate(values[row]):
            axis.text(place, row, f"{value:.1f}", ha="center", va="center", fontsize=7,
                      fontweight="bold" if place == column else "normal")
        if column is not None:
            axis.add_patch(plt.Rectangle((column - 0.5, row - 0.5), 1, 1, fill=False, edgecolor="black", linewidth=1.6))
    axis.set_xticks(range(len(bets)), list(bets), rotation=30, ha="right")
    axis.set_yticks(range(len(information)), list(information))
    axis.set_ylabel("information")
    axis.set_title(title, fontsize=9)
    figure.colorbar(image, ax=axis, label="expectation given the information (% of a unit)")
    return rendered(figure, fmt)
