"""Files the user names that are not what they seem (issue 39): an input that is a pipe, a device
or huge; a sessions file that is the user's own; a results folder edited by hand or holding a
folder, a pipe or a dangling link where its files go. Each is refused in one line (or, for a
result that is not whole, computed again to the same bytes) and the user's files are left as
they were.
"""

import json
import os
import sqlite3
import threading
from pathlib import Path

import pytest

from exact_odds.core.textfile import TEXT_LIMIT, user_text
from exact_odds.errors import InputError
from exact_odds.studies.ranges import Ran, ResultsFolder, Task, run_tasks

ERROR = "baccarat-odds: error: "
BETS = '[[bet]]\nname = "mine"\ncondition = "banker_wins"\npays = 1\n'
FIGURES = ('[[figure]]\nid = "x"\nsource = "s"\nquantity = "house_edge"\nbet = "tie"\nrules = "punto_banco"\ndecks = 8\n'
           'value = "0.1436"\nprecision = 4\n')
READERS = {
    "--bets-file": (["--decks", "1", "--bets-file"], "cannot read bets file {path!r}: {why}", BETS),
    "banque --rules": (["banque", "--rules"], "cannot read rules file {path!r}: {why}", 'name = "x"\n'),
    "verify --data": (["verify", "--data"], "cannot read {path!r}: {why}", FIGURES),
}
NOT_REGULAR = "not a regular file (a pipe, a device or a folder)"


@pytest.fixture(autouse=True)
def here(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)


def feeding(pipe: str, text: str) -> threading.Thread:
    """A writer that sends ``text`` into the pipe once a reader opens it (a reader that read it
    would take the pipe for a file: the refusal is what the test sees, never a hang)."""
    def feed() -> None:
        try:
            with open(pipe, "w", encoding="utf-8") as stream:
                stream.write(text)
        except OSError:
            pass  # the reader went without reading: what a refusal does
    writer = threading.Thread(target=feed, daemon=True)
    writer.start()
    return writer


def release(pipe: str, writer: threading.Thread) -> None:
    """The writer let go, had no reader come (a reader opened here, without waiting)."""
    if writer.is_alive():
        os.close(os.open(pipe, os.O_RDONLY | os.O_NONBLOCK))
    writer.join(5)


@pytest.mark.parametrize("reader", READERS)
def test_an_input_that_is_a_pipe_is_refused_without_waiting(run, reader):
    arguments, message, text = READERS[reader]
    os.mkfifo("pipe")
    writer = feeding("pipe", text)
    try:
        result = run(*arguments, "pipe")
    finally:
        release("pipe", writer)
    assert result == (2, "", ERROR + message.format(path="pipe", why=NOT_REGULAR) + "\n")


@pytest.mark.parametrize("reader", READERS)
def test_an_input_that_is_a_device_or_huge_is_refused(run, reader):
    arguments, message, _ = READERS[reader]
    assert run(*arguments, "/dev/zero") == (2, "", ERROR + message.format(path="/dev/zero", why=NOT_REGULAR) + "\n")
    Path("huge.toml").write_bytes(b"#" * (TEXT_LIMIT + 1))
    assert run(*arguments, "huge.toml") == (2, "", ERROR + message.format(path="huge.toml", why="larger than 16 MiB") + "\n")


def test_a_text_file_is_read_whole():
    Path("bets.toml").write_text(BETS, encoding="utf-8")
    assert user_text("bets.toml") == BETS
    Path("limit.toml").write_bytes(b"#" * TEXT_LIMIT)
    assert user_text("limit.toml") == "#" * TEXT_LIMIT
    with pytest.raises(OSError, match=r"^\[Errno 22\] not a regular file \(a pipe, a device or a folder\)$"):
        user_text(".")


# ---------------------------------------------------------------------------------------------
# serve --db: the sessions file
# ---------------------------------------------------------------------------------------------

def test_a_users_tiny_file_is_never_made_a_sessions_file():
    """SQLite takes a file of a few bytes for an empty database and writes over it."""
    from exact_odds.serve.store import Store

    Path("notes.txt").write_bytes(b"x")
    with pytest.raises(sqlite3.DatabaseError, match="^it is not an SQLite file, and a file of yours is never written over$"):
        Store("notes.txt")
    assert sorted(os.listdir()) == ["notes.txt"] and Path("notes.txt").read_bytes() == b"x"


def test_another_programs_sqlite_file_is_left_as_it_was():
    from exact_odds.serve.store import Store

    connection = sqlite3.connect("theirs.db")
    connection.execute("CREATE TABLE accounts (name TEXT)")
    connection.commit()
    connection.close()
    before = Path("theirs.db").read_bytes()
    with pytest.raises(sqlite3.DatabaseError, match="^it is the SQLite file of another program, with no sessions table: left as it was$"):
        Store("theirs.db")
    assert Path("theirs.db").read_bytes() == before and sorted(os.listdir()) == ["theirs.db"]


@pytest.mark.parametrize("kind", ["a dangling link", "a pipe", "a folder"])
def test_a_sessions_file_that_is_no_file_is_refused(kind):
    from exact_odds.serve.store import Store

    if kind == "a dangling link":
        os.symlink("elsewhere.sqlite", "sessions.sqlite")
        expected = "^it is a link to nothing: give the file itself$"
    else:
        os.mkfifo("sessions.sqlite") if kind == "a pipe" else os.mkdir("sessions.sqlite")
        expected = "^it is not a regular file but a folder, a pipe or a device$"
    with pytest.raises(sqlite3.DatabaseError, match=expected):
        Store("sessions.sqlite")
    assert sorted(os.listdir()) == ["sessions.sqlite"]


def test_a_sessions_file_of_ours_and_an_empty_file_are_taken():
    from exact_odds.serve.store import Store

    Path("empty.sqlite").write_bytes(b"")
    for path in ("empty.sqlite", "new.sqlite", "new.sqlite"):
        Store(path).close()
        assert Path(path).read_bytes().startswith(b"SQLite format 3\x00")


# ---------------------------------------------------------------------------------------------
# --resume: a results folder
# ---------------------------------------------------------------------------------------------

def _square(value: int) -> int:
    return value * value


def _squares(folder: ResultsFolder) -> tuple[dict[str, int], Ran]:
    merged: dict[str, int] = {}
    ran = run_tasks(_square, [Task("a", (3,), 1), Task("b", (4,), 1)], lambda task, result: merged.update({task.key: result}), folder=folder)
    return merged, ran


@pytest.mark.parametrize("edit", ["a result edited", "a result of another type", "a record of an older layout"])
def test_a_result_not_as_saved_is_computed_again(edit):
    folder = ResultsFolder("run", "squares", {})
    assert _squares(folder)[0] == {"a": 9, "b": 16}
    record = json.loads(Path("run/a.json").read_text(encoding="utf-8"))
    if edit == "a result edited":
        record["result"] = 10
    elif edit == "a result of another type":
        record["result"] = [9]
    else:
        del record["check"]
    Path("run/a.json").write_text(json.dumps(record), encoding="utf-8")
    merged, ran = _squares(ResultsFolder("run", "squares", {}))
    assert (merged, ran.computed, ran.read) == ({"a": 9, "b": 16}, 1, 1)
    assert json.loads(Path("run/a.json").read_text(encoding="utf-8"))["result"] == 9


@pytest.mark.parametrize("kind", ["a folder", "a pipe", "a link"])
def test_no_file_where_a_result_goes_is_refused(kind):
    folder = ResultsFolder("run", "squares", {})
    if kind == "a folder":
        os.mkdir("run/a.json")
    elif kind == "a pipe":
        os.mkfifo("run/a.json")
    else:
        Path("mine.json").write_text("{}", encoding="utf-8")
        os.symlink("../mine.json", "run/a.json")
    with pytest.raises(InputError, match=r"^resume 'run/a\.json' is not a file of results \(a link, a folder, a pipe or a device\): "
                                         "move it, or name a new folder$"):
        _squares(folder)
    assert sorted(os.listdir("run")) == ["a.json", "run.json"]


def test_a_run_file_that_is_a_pipe_is_refused_without_waiting():
    ResultsFolder("run", "squares", {})
    os.unlink("run/run.json")
    os.mkfifo("run/run.json")
    writer = feeding("run/run.json", json.dumps({"kind": "squares", "parameters": {}}))
    try:
        with pytest.raises(InputError, match=r"^resume 'run': its run\.json cannot be read$"):
            ResultsFolder("run", "squares", {})
    finally:
        release("run/run.json", writer)


def test_a_dangling_link_is_no_results_folder():
    os.symlink("elsewhere", "run")
    with pytest.raises(InputError, match="^resume 'run' is a link to nothing: give the folder itself$"):
        ResultsFolder("run", "squares", {})
    assert os.listdir() == ["run"]


def test_depth_resumed_from_a_hand_edited_range_gives_the_plain_bytes(run, tmp_path):
    """A summary of ranges whose count of positive compositions was raised by hand: once taken as
    it was (a wrong P(EV > 0), and success); now weighed again."""
    command = ["depth", "--decks", "1", "--cards-left", "18", "--bets", "banker", "--workers", "1", "--format", "json"]
    plain = run(*command)
    assert plain[0] == 0
    assert run(*command, "--resume", "kept") == plain
    edited = Path("kept/p1-n18.json")
    record = json.loads(edited.read_text(encoding="utf-8"))
    record["result"]["sums"]["positive"][0] += 10**6
    edited.write_text(json.dumps(record), encoding="utf-8")
    assert run(*command, "--resume", "kept") == plain
