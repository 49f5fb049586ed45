"""The report as a submission document: cover and contents, example coups dealt again by the brute-force
dealer, volatility and the hold's intervals from their definitions, several deck counts in one report,
inputs hashed, the progress from the start; and in Debian's chromium: the MathML drawn, the PDF's pages
and text."""

import hashlib
import math
import re
import shutil
import subprocess
import sys
import unicodedata
import zlib
from fractions import Fraction

import pytest

from exact_odds.bets.bets import load_bets
from exact_odds.cli.commands import main
from exact_odds.core.cards import parse_card
from exact_odds.core.policy import resolve
from exact_odds.core.rules import PUNTO_BANCO, rules_toml
from exact_odds.core.shoe import Shoe
from exact_odds import analyze
from exact_odds.commands.report import bet_page, report_date
from exact_odds.commands.report_sections import PHASES, Progress, ReportSettings
from oracles import coup_features, deal_physically, settle

pytest.importorskip("matplotlib")

PUNTO = resolve(PUNTO_BANCO)
EPOCH = "1767225600"  # 2026-01-01 00:00:00 UTC
BETS = '''[[bet]]
name = "red_nine"
description = "Player wins with 9, every card of the player's hand red"
pays = [
  { when = "winner == player and player_total == 9 and player_count(card_color == red) == player_cards and player_cards == 3", pays = "30", event = "red three-card 9" },
  { when = "winner == player and player_total == 9 and player_count(card_color == red) == player_cards", pays = "10", event = "red natural 9" },
  { when = "winner == tie", pays = "push", event = "tie" },
]

[[bet]]
name = "tie_eight"
description = "Tie pays 8 to 1"
pays = [{ when = "winner == tie", pays = "8", event = "tie" }]
'''
CHROMIUM = shutil.which("chromium")
BROWSER = [CHROMIUM or "chromium", "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
           "--disable-component-update", "--disable-sync"]
SECTIONS = ["Summary", "Rules of play and pay schedule", "Example coups", "Combinations and returns",
            "House edge, element of risk, hit frequency, standard deviation and volatility", "Maximum payout and exposure", "House edge by number of decks",
            "Effect of removal and derived counts", "Counting simulation", "Provenance"]


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    """One report of a colour bet and the tie at 8 to 1 on 2 decks, with 1, 2 decks and the infinite deck
    in its table; a rules file; 20 simulated shoes; a PDF where chromium is installed."""
    root = tmp_path_factory.mktemp("submission")
    (root / "bets.toml").write_text(BETS)
    (root / "rules.toml").write_text(rules_toml(PUNTO_BANCO))
    args = ["report", "--bets-file", str(root / "bets.toml"), "--rules", str(root / "rules.toml"), "--decks", "1-2,inf", "--shoes", "20",
            "--title", "Red Nine", "--game", "Punto Banco, EZ table", "--submitter", "A. Designer", "--out", str(root / "out")]
    args += ["--pdf"] if CHROMIUM else []
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("SOURCE_DATE_EPOCH", EPOCH)
        patch.setattr(sys, "argv", ["baccarat-odds", *args])
        with pytest.raises(SystemExit) as exit_info:
            main(args)
    assert exit_info.value.code == 0
    return root


def flat(text: str) -> str:
    return re.sub(r" +", " ", text)


def test_the_cover_and_the_contents(report):
    page = (report / "out" / "red_nine.html").read_text()
    rules_hash = hashlib.sha256(rules_toml(PUNTO_BANCO).encode()).hexdigest()[:16]
    for label, value in [("game", "Punto Banco, EZ table"), ("submitter", "A. Designer"), ("shoe", "2 decks (104 cards)"),
                         ("rules version", f"Punto Banco, rules file SHA-256 {rules_hash}"), ("date", "2026-01-01 00:00:00 UTC")]:
        assert f"<tr><th>{label}</th><td>{value}</td></tr>" in page
    assert "<h1>Red Nine: red_nine</h1>" in page and "<th>program version</th><td>exact_odds " in page
    listed = re.findall(r'<li><a href="#([a-z]+)">([^<]+)</a></li>', page)
    assert [title for _, title in listed] == SECTIONS
    for number, (key, title) in enumerate(listed, 1):
        assert f'<section id="{key}"' in page and f"<h2>{number}. {title}</h2>" in page


def example_rows(markdown: str) -> list[list[str]]:
    section = markdown.split("## 3. Example coups")[1].split("## 4.")[0]
    return [[cell.strip() for cell in line.strip("|").split("|")] for line in section.splitlines() if re.match(r"\|\s+\d", line)]


def test_every_pay_line_has_a_coup_that_the_brute_force_dealer_settles_on_it(report):
    bets = load_bets(BETS, "test")
    for name in ("red_nine", "tie_eight"):
        rows = example_rows((report / "out" / f"{name}.md").read_text())
        bet = bets[name]
        assert [int(row[0]) for row in rows] == list(range(1, len(bet.rows) + 1))
        for row, line in zip(rows, bet.rows):
            cards = [parse_card(text) for text in row[2].split()]
            [(chance, player, banker)] = deal_physically(cards + [parse_card("AS")] * 2)  # spare cards the coup leaves undealt
            assert chance == 1 and len(player) + len(banker) == len(cards)
            assert settle(bet, coup_features(player, banker)) == line.pays.net, (name, row)


def rounded(value: Fraction, places: int) -> str:
    """``value`` rounded half up to ``places`` decimals, from integers."""
    scaled = value * 10**places
    whole = math.floor(scaled + Fraction(1, 2))
    sign = "-" if whole < 0 else ""
    digits = str(abs(whole)).rjust(places + 1, "0")
    return f"{sign}{digits[:-places]}.{digits[-places:]}"


def root(value: Fraction, places: int) -> Fraction:
    """The square root of ``value`` to within 10**-places, below, by integer square roots."""
    scale = 10 ** (2 * places)
    return Fraction(math.isqrt(value.numerator * scale // value.denominator), 10**places)


def test_volatility_and_the_hold_are_their_definitions_on_the_tie(report):
    """The tie at 8 to 1 has a closed form: with p = P(tie), EV = 9p - 1 and E[X^2] = 64p + (1 - p)."""
    text = flat((report / "out" / "tie_eight.md").read_text())
    outcomes = analyze(Shoe.decks(2), "banker", PUNTO)
    p = outcomes.probability("tie")
    edge, variance = 1 - 9 * p, 64 * p + (1 - p) - (9 * p - 1) ** 2
    assert f"| variance per unit bet | {variance} | {rounded(variance, 6)} |" in text
    for level, z in ((90, Fraction("1.645")), (95, Fraction("1.96"))):
        index = z * root(variance, 30)
        assert f"| volatility index at {level}% confidence ({rounded(z, 3)} x standard deviation) | | {rounded(index, 4)} |" in text
    for hands in (1000, 10_000, 100_000):
        cells = []
        for z in (Fraction("1.645"), Fraction("1.96")):
            half = z * root(variance / hands, 30)
            cells.append(f"{rounded(100 * (edge - half), 4)}% to {rounded(100 * (edge + half), 4)}%")
        assert f"| {hands:,} | {cells[0]} | {cells[1]} |" in text
    assert "| maximum payout per unit bet | 8 to 1 | tie |" in text and f"| probability of the maximum payout | {p} |" in text


def test_each_deck_count_asked_is_in_one_report(report):
    text = flat((report / "out" / "red_nine.md").read_text())
    bet = load_bets(BETS, "test")["red_nine"]
    for label, shoe in (("1", Shoe.decks(1)), ("2", Shoe.decks(2)), ("infinite", Shoe.infinite())):
        edge = analyze(shoe, [bet], PUNTO).bets[0].house_edge
        assert f"| {label} | {edge} |" in text
    assert "On 2 decks (104 cards): house edge" in text  # the largest finite count asked
    assert "| 3 |" not in text.split("## 7.")[1].split("Closed form")[0]


def test_the_closed_form_is_mathml_and_latex(report):
    page = (report / "out" / "red_nine.html").read_text()
    math_element = re.search(r'<math display="block" xmlns="http://www.w3.org/1998/Math/MathML">(.*?)</math>', page, flags=re.S)
    assert math_element and "<mfrac>" in math_element.group(1) and "&InvisibleTimes;" not in math_element.group(1)
    assert "$$\nh(d) = \\frac{" in (report / "out" / "red_nine.md").read_text()


def test_every_input_is_copied_with_its_hash(report):
    text = (report / "out" / "red_nine.md").read_text()
    for name in ("bets.toml", "rules.toml"):
        data = (report / name).read_bytes()
        digest = hashlib.sha256(data).hexdigest()
        assert f"{report / name} (SHA-256 {digest})" in text
        assert data.decode().rstrip("\n") in text
    assert "Command: baccarat-odds report --bets-file " in text and "--decks 1-2,inf" in text


def test_progress_is_told_from_the_start():
    told: list[object] = []
    bet = load_bets(BETS, "test")["tie_eight"]
    settings = ReportSettings(3, 1, Fraction(7, 8), True, "test", report_date({"SOURCE_DATE_EPOCH": EPOCH}), "test", decks=(1,))
    progress = Progress(told.append, lambda steps: told.append(steps))
    bet_page(bet, Shoe.decks(1), PUNTO, settings, progress)
    assert told[0] == f"tie_eight: {PHASES[0]}"
    assert [item for item in told if isinstance(item, str)] == [f"tie_eight: {phase}" for phase in PHASES]
    assert sum(item for item in told if isinstance(item, int)) == 3


def test_pdf_without_chromium_is_one_line(run, tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))
    code, out, err = run("report", "--bets", "tie", "--decks", "1", "--shoes", "0", "--pdf", "--out", str(tmp_path / "r"))
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1 and "Debian's chromium, which is not installed" in err
    assert not (tmp_path / "r").exists()


def test_decks_before_and_after_the_command_is_refused(run, tmp_path):
    code, _, err = run("--decks", "6", "report", "--decks", "1-2", "--bets", "tie", "--shoes", "0", "--out", str(tmp_path / "r"))
    assert code == 2 and "--decks is given both before and after `report`" in err


def pdf_pages(data: bytes) -> list[str]:
    """The text of each page of a PDF as chromium (Skia) writes it (plain objects, fonts with ToUnicode
    maps), its white space left out."""
    objects = {int(found.group(1)): found.group(2) for found in re.finditer(rb"(\d+) 0 obj(.*?)endobj", data, re.S)}

    def stream(number: int) -> bytes:
        body = objects[number]
        raw = re.search(rb"stream\r?\n(.*?)\r?\nendstream", body, re.S).group(1)
        return zlib.decompress(raw) if b"/FlateDecode" in body.split(b"stream")[0] else raw

    def unicode(font: int) -> dict[int, str]:
        found = re.search(rb"/ToUnicode (\d+) 0 R", objects[font])
        mapping: dict[int, str] = {}
        cmap = stream(int(found.group(1))) if found else b""
        for block in re.findall(rb"beginbfchar(.*?)endbfchar", cmap, re.S):
            for code, text in re.findall(rb"<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>", block):
                mapping[int(code, 16)] = bytes.fromhex(text.decode()).decode("utf-16-be")
        for block in re.findall(rb"beginbfrange(.*?)endbfrange", cmap, re.S):
            for low, high, text in re.findall(rb"<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>", block):
                for offset, code in enumerate(range(int(low, 16), int(high, 16) + 1)):
                    mapping[code] = chr(int(text, 16) + offset)
        return mapping

    def leaves(number: int) -> list[int]:
        if not re.search(rb"/Type /Pages\b", objects[number]):
            return [number]
        return [leaf for kid in re.findall(rb"(\d+) 0 R", re.search(rb"/Kids \[(.*?)\]", objects[number], re.S).group(1)) for leaf in leaves(int(kid))]

    catalog = next(body for body in objects.values() if re.search(rb"/Type /Catalog\b", body))
    pages = []
    for leaf in leaves(int(re.search(rb"/Pages (\d+) 0 R", catalog).group(1))):
        page = objects[leaf]
        fonts = {name: unicode(int(number)) for name, number in re.findall(rb"/(F\d+) (\d+) 0 R", page)}
        font: dict[int, str] = {}
        text = []
        for number in re.findall(rb"(\d+) 0 R", re.search(rb"/Contents (\[.*?\]|\d+ 0 R)", page, re.S).group(1)):
            for token in re.finditer(rb"/(F\d+) [\d.]+ Tf|<([0-9A-Fa-f]*)>", stream(int(number))):
                if token.group(1):
                    font = fonts.get(token.group(1), {})
                else:
                    codes = token.group(2).decode()
                    text.append("".join(font.get(int(codes[index:index + 4], 16), "") for index in range(0, len(codes), 4)))
        pages.append(re.sub(r"\s+", "", unicodedata.normalize("NFKC", "".join(text))))  # ligatures (ff, fi) as their letters
    return pages


@pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed (.ci/run installs it)")
def test_the_pdf_has_its_pages_and_figures(report):
    data = (report / "out" / "red_nine.pdf").read_bytes()
    assert data.startswith(b"%PDF")
    pages = pdf_pages(data)
    count = len(pages)
    assert count >= 7  # the cover, the contents and the sections printed from the top of a page
    for number, text in enumerate(pages, 1):
        assert f"page{number}of{count}" in text and "RedNine:red_nine" in text
    assert "Red Nine" in data.decode("latin-1")  # the document's title in its metadata
    everything = "".join(pages)
    bet = load_bets(BETS, "test")["red_nine"]
    result = analyze(Shoe.decks(2), [bet], PUNTO).bets[0]
    for figure in (str(result.house_edge), f"{result.rows[0].combinations:,}", str(result.variance), "A.Designer"):
        assert figure in everything, figure
    assert "Contents1.Summary2.Rulesofplayandpayschedule" in pages[1] and "1.SummaryOn2decks" in pages[1]
    starts = {title: next(index for index, text in enumerate(pages) if index > 1 and f"{number}.{title.replace(' ', '')}" in text)
              for number, title in enumerate(SECTIONS, 1) if number > 1}
    for title in ("Rules of play and pay schedule", "Example coups", "House edge by number of decks", "Effect of removal and derived counts",
                  "Provenance"):  # each from the top of a page
        assert pages[starts[title]].startswith(f"page{starts[title] + 1}of{count}RedNine:red_nine{SECTIONS.index(title) + 1}."), title
    assert list(starts.values()) == sorted(starts.values())


@pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed (.ci/run installs it)")
def test_a_real_browser_draws_the_mathml(report, tmp_path):
    page = (report / "out" / "red_nine.html").read_text()
    probe = ("<script>const m = document.querySelector('math'); const f = m.querySelector('mfrac');"
             "document.body.dataset.math = [Math.round(m.getBoundingClientRect().width), Math.round(f.getBoundingClientRect().height), "
             "getComputedStyle(f).display].join(' ');</script></body>")
    (tmp_path / "probe.html").write_text(page.replace("</body>", probe))
    shown = subprocess.run([*BROWSER, f"--user-data-dir={tmp_path / 'profile'}", "--dump-dom", (tmp_path / "probe.html").as_uri()],
                           capture_output=True, text=True, timeout=120, check=True).stdout
    width, height, display = re.search(r'data-math="(\d+) (\d+) ([a-z -]+)"', shown).groups()
    assert display == "block math" and int(width) > 200 and int(height) > 20  # laid out as a fraction, numerator over denominator


@pytest.mark.parametrize("flag,value", [("--title", ""), ("--game", "two\nlines"), ("--submitter", "   ")])
def test_cover_fields_are_one_line_of_text(run, tmp_path, flag, value):
    code, out, err = run("report", "--bets", "tie", "--decks", "1", "--shoes", "0", flag, value, "--out", str(tmp_path / "r"))
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1 and f"{flag} must be one line of printable text" in err
    assert not (tmp_path / "r").exists()
