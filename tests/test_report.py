"""The math report: exact figures equal the library's, the simulation equals a direct run, the folder is
reproducible and self-contained, and a real headless browser (Debian's chromium) shows its tables and plots."""

import re
import shutil
import subprocess
import sys
from fractions import Fraction
from html.parser import HTMLParser

import pytest

from exact_odds import __version__
from exact_odds import analyze
from exact_odds.bets.bets import catalog, load_bets
from exact_odds.cli.commands import main
from exact_odds.engine.kernel import kernel_info
from exact_odds.commands.report import report_date
from exact_odds.commands.report_sections import COUNT_THRESHOLDS, estimate_cell
from exact_odds.core.policy import resolve
from exact_odds.studies.removal import balanced_tags, removal_effects
from exact_odds.core.numbers import percent
from exact_odds.core.rules import BACCARAT_GOLD, PUNTO_BANCO
from exact_odds.core.shoe import Shoe
from exact_odds.studies.dealer import Settings
from exact_odds.studies.simulate import estimates, run

pytest.importorskip("matplotlib")

PUNTO = resolve(PUNTO_BANCO)
EPOCH = "1767225600"  # 2026-01-01 00:00:00 UTC
USER_BETS = ('[[bet]]\nname = "banker_seven"\ndescription = "Banker wins with a total of 7"\npays = [\n'
             '  { when = "winner == banker and banker_total == 7", pays = "5", event = "banker wins on 7" },\n'
             '  { when = "winner == tie and banker_total == 7", pays = "push", event = "tie on 7" },\n]\n')
SHOES = 100


def invoke(*args: str) -> int:
    with pytest.raises(SystemExit) as exit_info:
        main(list(args))
    return exit_info.value.code


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    """One report of a catalog bet, a suited bet and a user's bet; made twice, into the same folder."""
    root = tmp_path_factory.mktemp("report")
    (root / "bets.toml").write_text(USER_BETS)
    args = ["report", "--bets", "dragon_7,perfect_pair,banker_seven", "--bets-file", str(root / "bets.toml"), "--shoes", str(SHOES),
            "--out", str(root / "out")]
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("SOURCE_DATE_EPOCH", EPOCH)
        patch.setattr(sys, "argv", ["baccarat-odds", *args])
        assert invoke(*args) == 0
        first = {path.name: path.read_bytes() for path in (root / "out").iterdir()}
        assert invoke(*args) == 0
    return root / "out", first


def test_the_folder_holds_every_page_and_plot(folder):
    out, _ = folder
    names = {path.name for path in out.iterdir()}
    for bet in ("dragon_7", "perfect_pair", "banker_seven"):
        assert {f"{bet}.html", f"{bet}.md", f"{bet}-edge-by-decks.svg", f"{bet}-removal.svg"} <= names
    assert {"dragon_7-count.svg", "banker_seven-count.svg", "index.html", "index.md", "manifest.json"} <= names
    assert "perfect_pair-count.svg" not in names  # every rank removes the same: no count helps
    for page in out.glob("*.md"):
        for image in re.findall(r"!\[[^]]*\]\(([^)]+)\)", page.read_text()):
            assert (out / image).is_file()


def test_the_same_command_gives_the_same_bytes(folder):
    out, first = folder
    assert {path.name: path.read_bytes() for path in out.iterdir()} == first


def test_exact_figures_are_the_library_s(folder):
    out, _ = folder
    text = (out / "dragon_7.md").read_text()
    bet = catalog()["dragon_7"]
    result = analyze(Shoe.decks(8), [bet], PUNTO).bets[0]
    assert f"| house edge per bet made | {result.house_edge} | {percent(result.house_edge)} |" in re.sub(r" +", " ", text)
    assert f"{result.rows[0].combinations:,}" in text
    for decks in range(1, 9):
        edge = analyze(Shoe.decks(decks), [bet], PUNTO).bets[0].house_edge
        assert re.search(rf"\|\s+{decks} \|\s+{edge} \|", text)
    infinite = analyze(Shoe.infinite(), [bet], PUNTO).bets[0].house_edge
    assert infinite == Fraction(368223, 4826809)
    assert f"the edge tends to {infinite} ({percent(infinite)}), the infinite deck's" in text  # the closed form's limit
    effects = removal_effects(Shoe.decks(8), [bet], PUNTO)[0]
    for rank, effect in zip("A23456789TJQK", effects.effects):
        assert re.search(rf"\| {rank}\s+\|\s+{effect} \|", text)
    tags = balanced_tags(effects.effects, 2)
    assert "level-2 tags derived above (" + ", ".join(f"{rank}={tag}" for rank, tag in zip("A23456789TJQK", tags)) + ")" in text


def test_user_bets_and_pushes(folder):
    out, _ = folder
    text = (out / "banker_seven.md").read_text()
    bet = load_bets(USER_BETS, "test")["banker_seven"]
    result = analyze(Shoe.decks(8), [bet], PUNTO).bets[0]
    assert result.push_probability > 0
    assert re.search(rf"house edge per bet resolved \(pushes excluded\)\s+\|\s+{result.house_edge_excluding_pushes} \|", text)
    assert "| 2 | tie on 7 | push | pushes | the coup is a tie and the banker's final total is 7 |" in re.sub(r" +", " ", text)
    assert "- line 2: winner == tie and banker_total == 7" in text


def test_the_simulation_is_a_direct_run_of_the_same_settings(folder):
    out, _ = folder
    text = (out / "dragon_7.md").read_text()
    bet = catalog()["dragon_7"]
    tags = balanced_tags(removal_effects(Shoe.decks(8), [bet], PUNTO)[0].effects, 2)
    simulation = run(Settings(Shoe.decks(8), SHOES, 1, Fraction(7, 8), True, tags, ("dragon_7",), PUNTO, thresholds=COUNT_THRESHOLDS), 2)
    by_threshold = {threshold: estimates(simulation, "dragon_7", threshold) for threshold in COUNT_THRESHOLDS}
    best = max(COUNT_THRESHOLDS, key=lambda threshold: by_threshold[threshold]["gain_per_shoe"].value)
    assert f"true count at or above {best:+d} (the best threshold) | {estimate_cell(by_threshold[best]['gain_per_shoe'], 4)} |" in re.sub(r" +", " ", text)
    perfect = estimates(simulation, "dragon_7", None)["gain_per_shoe"]
    assert f"positive | {estimate_cell(perfect, 4)} |" in re.sub(r" +", " ", text)
    assert f"{SHOES:,} shoes of 8 decks (416 cards), seed 1; the cut card at 7/8 of the shoe (52 cards behind it)" in text


def test_provenance(folder):
    out, _ = folder
    for name in ("dragon_7.md", "index.md"):
        text = (out / name).read_text()
        assert f"Made 2026-01-01 00:00:00 UTC by exact_odds {__version__} ({kernel_info()})." in text
        assert "Command: baccarat-odds report --bets dragon_7,perfect_pair,banker_seven --bets-file " in text


class Tags(HTMLParser):
    """Counts of start tags, and the attributes that load anything."""

    def __init__(self) -> None:
        super().__init__()
        self.counts: dict[str, int] = {}
        self.loads: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.counts[tag] = self.counts.get(tag, 0) + 1
        self.loads += [value or "" for name, value in attrs if name in ("src", "href", "xlink:href") and not (value or "").startswith("#")]


def test_html_pages_are_self_contained(folder):
    out, _ = folder
    for page in out.glob("*.html"):
        parser = Tags()
        parser.feed(page.read_text())
        assert "script" not in parser.counts and "link" not in parser.counts and "img" not in parser.counts
        if page.name == "index.html":
            assert sorted(parser.loads) == ["banker_seven.html", "dragon_7.html", "perfect_pair.html"]
        else:
            assert parser.loads == []
    parser = Tags()
    parser.feed((out / "dragon_7.html").read_text())
    assert parser.counts["svg"] == 3 and parser.counts["math"] == 1
    assert parser.counts["table"] == 12  # cover, schedule, examples, returns, edges, hold, payout, decks, removal, simulation, thresholds, inputs


def test_the_report_date():
    assert report_date({"SOURCE_DATE_EPOCH": "0"}).isoformat() == "1970-01-01T00:00:00+00:00"
    assert report_date({}).tzinfo is not None


CHROMIUM = shutil.which("chromium")
BROWSER = [CHROMIUM or "chromium", "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
           "--disable-background-networking", "--disable-component-update", "--disable-sync"]


@pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed (.ci/run installs it)")
def test_a_real_browser_shows_the_tables_and_plots(folder, tmp_path):
    out, _ = folder
    page = (out / "dragon_7.html").as_uri()
    shown = subprocess.run([*BROWSER, f"--user-data-dir={tmp_path / 'profile'}", "--dump-dom", page], capture_output=True, text=True,
                           timeout=120, check=True).stdout
    assert shown.count("<table>") == 12  # as test_html_pages_are_self_contained lists them
    for plot in ("dragon_7-edge-by-decks", "dragon_7-removal", "dragon_7-count"):
        figure = re.search(rf'<figure id="{plot}"><svg .*?</svg>', shown, flags=re.S)
        assert figure and figure.group(0).count("<path") > 10, plot
    assert "House edge by number of decks" in shown and "Counting simulation" in shown
    picture = tmp_path / "page.png"
    subprocess.run([*BROWSER, f"--user-data-dir={tmp_path / 'profile'}", "--window-size=1100,2400", f"--screenshot={picture}", page],
                   capture_output=True, timeout=120, check=True)
    assert picture.read_bytes().startswith(b"\x89PNG") and picture.stat().st_size > 50_000


def test_the_infinite_deck_has_no_removal_or_count(tmp_path, run, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", EPOCH)
    code, out, _ = run("report", "--decks", "inf", "--bets", "tie", "--out", str(tmp_path / "inf"))
    assert code == 0 and out == f"wrote 6 files to {tmp_path / 'inf'}\n"  # no edge plot: no finite deck count asked
    text = (tmp_path / "inf" / "tie.md").read_text()
    assert "has no effect of removal" in text and "derived counts" not in text and "Counting simulation" not in text
    assert re.search(r"\|\s+infinite \|\s+" + str(analyze(Shoe.infinite(), [catalog()["tie"]], PUNTO).bets[0].house_edge) + r" \|", text)


def test_rules_and_policy_reach_the_report(tmp_path, run):
    code, _, _ = run("report", "--rules", "baccarat_gold", "--policy", "player_on_5=draw", "--bets", "player", "--decks", "6", "--shoes", "0",
                     "--out", str(tmp_path / "gold"))
    assert code == 0
    text = (tmp_path / "gold" / "player.md").read_text()
    edge = analyze(Shoe.decks(6), [catalog()["player"]], resolve(PUNTO_BANCO)).bets[0].house_edge
    gold = analyze(Shoe.decks(6), [catalog()["player"]], BACCARAT_GOLD, policy="player_on_5=draw").bets[0].house_edge
    assert gold != edge and f"house edge {percent(gold)} per bet made" in text
    assert "with the choices player_on_5=draw" in text and "Baccarat Gold" in text


@pytest.mark.parametrize("args,files,message", [
    (["--out", "{tmp}/mine"], {"mine/notes.txt": "my notes"}, "holds files this command did not write"),
    (["--out", "{tmp}/r", "--shoes", "many"], {}, "--shoes must be a whole number"),
    (["--out", "{tmp}/r", "--penetration", "1"], {}, "strictly between 0 and 1"),
    (["--out", "{tmp}/r", "--bets", "perfect_pair", "--shoe", "A=32,K=32"], {}, "reads suits"),
    (["--out", "{tmp}/r", "--bets", "nope"], {}, "unknown bet 'nope'"),
    (["--out", "{tmp}/r", "--rules", "baccarat_gold", "--bets", "player"], {}, "player_on_5=draw"),
    (["--out", ""], {}, "--out is empty"),
    (["--bets", "tie"], {}, "Missing option '--out'"),
])
def test_bad_input_is_one_line_and_writes_nothing(run, tmp_path, args, files, message):
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    before = sorted(path.relative_to(tmp_path) for path in tmp_path.rglob("*"))
    code, out, err = run("report", *[arg.replace("{tmp}", str(tmp_path)) for arg in args])
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1 and message in err, err
    assert sorted(path.relative_to(tmp_path) for path in tmp_path.rglob("*")) == before


def test_a_bad_source_date_is_one_line(run, tmp_path, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "yesterday")
    code, _, err = run("report", "--bets", "tie", "--shoes", "0", "--out", str(tmp_path / "r"))
    assert code == 2 and "SOURCE_DATE_EPOCH must be whole seconds since 1970, not 'yesterday'" in err and not (tmp_path / "r").exists()


def test_without_matplotlib_is_one_line(run, tmp_path, without_matplotlib):
    code, _, err = run("report", "--bets", "tie", "--out", str(tmp_path / "r"))
    assert code == 2 and "report needs matplotlib: pip install 'exact_odds[plot]'" in err and not (tmp_path / "r").exists()
