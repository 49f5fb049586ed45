"""The user's files are never written over (issue 29, class 6): every command that writes files.

``--force`` writes into a folder that holds other files too, replacing only the files the same
command's manifest lists (files that command wrote there before). A file of the same name that the
command did not write (your own ``tie.html``, ``decks-1.json``, ``manifest.json``; another
command's files) is refused in one line, with or without ``--force``, and left as it was. A
``--plot`` draws again over a plot it drew before, and refuses any other file of that name (a link
too). Each refusal is checked whole; each answer against a plain run into a new folder.
"""

import json
import os
from pathlib import Path

import pytest

ERROR = "baccarat-odds: error: "
EXPORT = ["export", "--decks", "1", "--no-chemin", "--no-formulas", "--bets", "banker"]
REPORT = ["report", "--decks", "1", "--shoes", "0", "--bets", "tie"]


def snapshot(folder: Path) -> dict[str, bytes | str]:
    """Every entry under ``folder`` (hidden ones too): files by content, links by target."""
    entries: dict[str, bytes | str] = {}
    for path in sorted(folder.rglob("*")):
        name = path.relative_to(folder).as_posix()
        entries[name] = "-> " + os.readlink(path) if path.is_symlink() else "dir" if path.is_dir() else path.read_bytes()
    return entries


def theirs(path: str, command: str) -> str:
    return f"{ERROR}cannot write {path!r}: a file of that name is there that {command} did not write (its manifest does not list it): " \
           "move it, or name another folder\n"


def held(folder: str, listed: str, more: int = 0) -> str:
    extra = f" and {more} more" if more else ""
    return (f"{ERROR}--out {folder!r} holds files this command did not write ({listed}{extra}): give an empty or new folder, "
            "or --force to replace only this command's files\n")


@pytest.fixture(autouse=True)
def here(tmp_path, monkeypatch):
    """Every case runs in its own folder, naming its files relative to it (as messages show them)."""
    monkeypatch.chdir(tmp_path)


@pytest.fixture
def plain(run, tmp_path):
    """What a plain run of a command writes into a new folder."""
    def written(command: list[str]) -> dict[str, bytes | str]:
        folder = tmp_path.parent / f"{tmp_path.name}-plain-{command[0]}"
        assert run(*command, "--out", str(folder))[0] == 0
        return snapshot(folder)
    return written


@pytest.mark.parametrize("command,name", [
    (EXPORT, "decks-1.json"), (EXPORT, "decks-1.csv"), (EXPORT, "README.md"), (EXPORT, "manifest.json"),
    (REPORT, "tie.html"), (REPORT, "tie.md"), (REPORT, "index.html"), (REPORT, "manifest.json"),
], ids=lambda value: value if isinstance(value, str) else value[0])
@pytest.mark.parametrize("force", [False, True], ids=["plain", "force"])
def test_a_users_file_of_the_same_name_is_refused_forced_or_not(run, tmp_path, command, name, force):
    if command is REPORT:
        pytest.importorskip("matplotlib")
    out = Path("out")
    out.mkdir()
    (out / name).write_text("mine\n", encoding="utf-8")
    before = snapshot(tmp_path)
    code, printed, err = run(*command, "--out", str(out), *(["--force"] if force else []))
    assert (code, printed) == (2, "")
    assert err == (theirs(f"out/{name}", command[0]) if force else held("out", name))
    assert snapshot(tmp_path) == before, "the user's file, or a staging folder"


def test_force_found_only_at_the_end_is_refused_and_leaves_nothing(run, tmp_path):
    """A name the command writes that cannot be known before its work (the summary of export):
    refused when the files are put in place, the user's file kept, nothing staged left."""
    out = Path("out")
    out.mkdir()
    (out / "summary.csv").write_text("my summary\n", encoding="utf-8")
    (out / "thesis.tex").write_text("my thesis\n", encoding="utf-8")
    before = snapshot(tmp_path)
    command = [*EXPORT[:-2], "--bets", "banker"]
    code, printed, err = run(*command, "--out", str(out), "--force")
    assert (code, printed, err) == (2, "", theirs("out/summary.csv", "export"))
    assert snapshot(tmp_path) == before


def test_force_replaces_the_commands_own_files_and_keeps_the_users(run, tmp_path, plain):
    out = Path("out")
    assert run(*EXPORT, "--out", str(out))[0] == 0
    (out / "decks-1.csv").write_text("stale, but export's own\n", encoding="utf-8")
    (out / "thesis.tex").write_text("my thesis\n", encoding="utf-8")
    assert run(*EXPORT, "--out", str(out)) == (2, "", held("out", "thesis.tex"))
    code, printed, err = run(*EXPORT, "--out", str(out), "--force")
    assert (code, printed, err) == (0, "wrote 8 files to out\n", "")
    assert snapshot(out) == {**plain(EXPORT), "thesis.tex": b"my thesis\n"}


def test_another_commands_folder_is_not_this_commands(run, tmp_path, plain):
    """A report into a folder export wrote: export's files (its manifest too) are not the report's,
    refused forced or not; export's folder is still export's to write again."""
    pytest.importorskip("matplotlib")
    out = Path("out")
    assert run(*EXPORT, "--out", str(out))[0] == 0
    exported = snapshot(out)
    assert run(*REPORT, "--out", str(out)) == (2, "", held("out", "README.md, decks-1.csv, decks-1.json", 5))
    assert run(*REPORT, "--out", str(out), "--force") == (2, "", theirs("out/manifest.json", "report"))
    assert snapshot(out) == exported
    assert run(*EXPORT, "--out", str(out)) == (0, "wrote 8 files to out\n", "")
    assert snapshot(out) == plain(EXPORT)


def test_a_manifest_of_no_command_lists_none_of_its_files(run, tmp_path):
    """A manifest that names no command (or another) cannot say which command wrote its files."""
    out = Path("out")
    assert run(*EXPORT, "--out", str(out))[0] == 0
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    assert list(manifest) == ["command", "files"] and manifest["command"] == "export"
    del manifest["command"]
    (out / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    before = snapshot(tmp_path)
    assert run(*EXPORT, "--out", str(out)) == (2, "", held("out", "README.md, decks-1.csv, decks-1.json", 5))
    assert run(*EXPORT, "--out", str(out), "--force") == (2, "", theirs("out/decks-1.csv", "export"))
    assert snapshot(tmp_path) == before


# ---------------------------------------------------------------------------------------------
# --plot: a single file
# ---------------------------------------------------------------------------------------------

PLOTS = {"eor": ["eor", "--decks", "1", "--bets", "banker"], "simulate": ["simulate", "--decks", "1", "--shoes", "2", "--bets", "banker", "--count", "5=1"]}


def plot_refused(path: str) -> str:
    return f"{ERROR}--plot {path!r}: a file of that name is there that this program did not write: move it, or name another file\n"


@pytest.mark.parametrize("command", PLOTS)
@pytest.mark.parametrize("kind", ["a file", "a PNG of its own", "a link to a plot", "a dangling link"])
def test_a_plot_never_replaces_a_users_file(run, tmp_path, command, kind):
    pytest.importorskip("matplotlib")
    target = Path("plot.png")
    if kind == "a file":
        target.write_text("my notes\n", encoding="utf-8")
    elif kind == "a PNG of its own":
        target.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    elif kind == "a link to a plot":
        assert run(*PLOTS[command], "--plot", "drawn.png")[0] == 0
        target.symlink_to("drawn.png")
    else:
        target.symlink_to("nowhere.png")
    before = snapshot(tmp_path)
    assert run(*PLOTS[command], "--plot", str(target)) == (2, "", plot_refused("plot.png"))
    assert snapshot(tmp_path) == before


@pytest.mark.parametrize("command", PLOTS)
def test_a_plot_draws_again_over_its_own(run, tmp_path, command):
    pytest.importorskip("matplotlib")
    target = Path("plot.png")
    first = run(*PLOTS[command], "--plot", str(target))
    drawn = target.read_bytes()
    assert first[0] == 0 and drawn.startswith(b"\x89PNG")
    assert run(*PLOTS[command], "--plot", str(target)) == first
    assert target.read_bytes() == drawn and sorted(path.name for path in tmp_path.iterdir()) == ["plot.png"]
