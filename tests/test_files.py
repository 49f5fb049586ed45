"""FolderTarget with subfolders: written whole, our own files replaced, the user's never touched,
never through a link, and a manifest naming paths outside the folder ignored."""

import json
from pathlib import Path

import pytest

from exact_odds.errors import InputError
from exact_odds.output.files import MANIFEST, FolderTarget

FIRST = {"a.txt": "a\n", "sub/b.txt": "b\n", "sub/deeper/c.txt": "c\n"}


def write(path: Path, files: dict[str, str], force: bool = False) -> None:
    with FolderTarget(str(path), force, "test") as target:
        target.write(files)


def contents(folder: Path) -> dict[str, str]:
    return {entry.relative_to(folder).as_posix(): entry.read_text() for entry in sorted(folder.rglob("*")) if entry.is_file()}


def test_subfolders_are_written_and_listed(tmp_path):
    out = tmp_path / "out"
    write(out, FIRST)
    assert contents(out) == {**FIRST, MANIFEST: (out / MANIFEST).read_text()}
    assert sorted(json.loads((out / MANIFEST).read_text())["files"]) == sorted(FIRST)
    write(out, {"a.txt": "a2\n", "sub/e.txt": "e\n"})  # a folder of ours: replaced whole, no --force needed
    assert sorted(contents(out)) == ["a.txt", MANIFEST, "sub/e.txt"]
    assert sorted(entry.name for entry in tmp_path.iterdir()) == ["out"], "a staging folder was left behind"


def test_a_users_file_inside_our_subfolder_is_theirs(tmp_path):
    out = tmp_path / "out"
    write(out, FIRST)
    (out / "sub" / "mine.txt").write_text("mine\n")
    with pytest.raises(InputError, match="sub/mine.txt"):
        FolderTarget(str(out), False, "test")
    write(out, {"a.txt": "a2\n"}, force=True)
    assert contents(out) == {"a.txt": "a2\n", "sub/mine.txt": "mine\n", MANIFEST: (out / MANIFEST).read_text()}
    assert not (out / "sub" / "deeper").exists(), "a folder we emptied is removed"


def test_a_linked_subfolder_is_never_written_through(tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "b.txt").write_text("precious\n")
    out = tmp_path / "out"
    out.mkdir()
    (out / "sub").symlink_to(elsewhere)
    with pytest.raises(InputError, match="sub"):
        FolderTarget(str(out), False, "test")
    with pytest.raises(InputError, match="in the way"):
        write(out, FIRST, force=True)
    assert (elsewhere / "b.txt").read_text() == "precious\n"
    assert sorted(entry.name for entry in out.iterdir()) == ["sub"]
    assert sorted(entry.name for entry in tmp_path.iterdir()) == ["elsewhere", "out"]


def test_stale_files_under_a_link_are_not_removed(tmp_path):
    out = tmp_path / "out"
    write(out, FIRST)
    elsewhere = tmp_path / "elsewhere"
    (out / "sub").rename(elsewhere)
    (out / "sub").symlink_to(elsewhere)
    write(out, {"a.txt": "a2\n"}, force=True)
    assert contents(elsewhere) == {"b.txt": "b\n", "deeper/c.txt": "c\n"}


def test_a_users_folder_where_our_file_was_is_theirs(tmp_path):
    out = tmp_path / "out"
    write(out, FIRST)
    (out / "a.txt").unlink()
    (out / "a.txt").mkdir()
    (out / "a.txt" / "mine.txt").write_text("mine\n")
    with pytest.raises(InputError, match="a.txt"):
        FolderTarget(str(out), False, "test")
    with pytest.raises(InputError, match="in the way"):
        write(out, FIRST, force=True)
    assert (out / "a.txt" / "mine.txt").read_text() == "mine\n"


def test_a_manifest_naming_paths_outside_the_folder_is_not_followed(tmp_path):
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    out = tmp_path / "out"
    out.mkdir()
    (out / "mine.txt").write_text("mine\n")
    names = ["../victim.txt", str(victim), "sub/../../victim.txt", "", "./x"]
    (out / MANIFEST).write_text(json.dumps({"command": "test", "files": dict.fromkeys(names, "0")}))
    write(out, {"a.txt": "a\n"}, force=True)
    assert victim.read_text() == "precious\n"
    assert contents(out) == {"a.txt": "a\n", "mine.txt": "mine\n", MANIFEST: (out / MANIFEST).read_text()}


@pytest.mark.parametrize("here,out", [("empty", "."), ("empty", "{here}"), ("out/sub", ".."), ("out/sub", "{here}/..")])
def test_the_current_folder_or_one_holding_it_is_refused_before_any_work(tmp_path, monkeypatch, here, out):
    """A folder written whole is moved into place: the current folder, or one holding it (here it holds
    only our files: the current folder is a subfolder we wrote), cannot be."""
    write(tmp_path / "out", FIRST)
    (tmp_path / "empty").mkdir()
    monkeypatch.chdir(tmp_path / here)
    before = contents(tmp_path)
    with pytest.raises(InputError, match="is the current folder, a folder holding it or a mount point, which cannot be replaced: name a new"):
        FolderTarget(out.format(here=tmp_path / here), False, "test")
    assert contents(tmp_path) == before and sorted(entry.name for entry in tmp_path.iterdir()) == ["empty", "out"], "nothing is staged"


def test_a_mount_point_is_refused(tmp_path, monkeypatch):
    out = tmp_path / "mounted"
    out.mkdir()
    monkeypatch.setattr("os.path.ismount", lambda path: Path(path) == out)
    with pytest.raises(InputError, match="mount point"):
        FolderTarget(str(out), False, "test")
    write(tmp_path / "beside", FIRST)


def test_the_current_folder_with_force_takes_our_files_in_place(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "mine.txt").write_text("mine\n")
    write(Path("."), {"a.txt": "a\n"}, force=True)
    assert contents(tmp_path) == {"a.txt": "a\n", "mine.txt": "mine\n", MANIFEST: (tmp_path / MANIFEST).read_text()}


@pytest.mark.parametrize("command", [["export", "--decks", "1"], ["report", "--bets", "banker"]])
def test_out_dot_in_an_empty_folder_is_one_line_before_any_work(tmp_path, monkeypatch, run, command):
    from exact_odds.commands import export
    from exact_odds.commands import report as mathreport

    def no_work(*args, **kwargs):
        raise AssertionError("the work started before --out was checked")

    monkeypatch.setattr(export, "export_files", no_work)
    monkeypatch.setattr(mathreport, "build", no_work)
    monkeypatch.chdir(tmp_path)
    code, out, err = run(*command, "--out", ".")
    assert code == 2 and out == ""
    assert err.strip().splitlines() == ["baccarat-odds: error: --out '.' is the current folder, a folder holding it or a mount point, "
                                        "which cannot be replaced: name a new or empty sub-folder"]
    assert list(tmp_path.iterdir()) == []
