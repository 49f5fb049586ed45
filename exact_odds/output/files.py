"""Writing files so that nothing is half-written and a user's files are never overwritten.

A folder of results is written whole into a fresh folder beside the target and moved into place
(the old one moved aside in the same instant, Ctrl-C deferred); a target holding files that the
same command did not write is refused unless forced, and even then only that command's own files
are replaced, never through a symbolic link: a file of the same name that it did not write is
refused, forced or not. A single file (a plot) is written beside its path and renamed over it.
Every file and folder written follows the umask (0666 or 0777 less it), as a plain ``open`` does.
A manifest (``manifest.json``) names the command and lists what it wrote, with each file's
SHA-256; a name may hold subfolders (``chemin-de-fer/A-decks-1.json``). A command's own files are
those its manifest lists (a manifest of another command, or without one, lists none of them).
"""

import hashlib
import json
import os
import shutil
import tempfile
from collections.abc import Iterable, Mapping
from pathlib import Path
from types import TracebackType

from ..errors import InputError
from ..interrupts import interrupts_deferred
from ..core.numbers import shown
from .render import json_text

MANIFEST = "manifest.json"


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _inside(name: object) -> bool:
    """A relative path below the folder: parts joined by "/", none empty, "." or ".."."""
    return isinstance(name, str) and all(part not in ("", ".", "..") for part in name.split("/"))


def _ours(folder: Path, command: str) -> set[str]:
    """The files a manifest in ``folder`` says ``command`` wrote (and the manifest); names that
    would reach outside the folder are ignored, and a manifest of another command lists none."""
    try:
        manifest = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
        listed = manifest["files"]
        if manifest.get("command") != command or not isinstance(listed, dict):
            return set()
        return {name for name in listed if _inside(name)} | {MANIFEST}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return set()


def _foreign(folder: Path, ours: set[str]) -> list[str]:
    """What ``folder`` holds that we did not write: entries not in ``ours`` (a folder of ours is
    a real folder, never a link, and is looked into; a file of ours is not a folder)."""
    folders = {name.rsplit("/", count)[0] for name in ours for count in range(1, name.count("/") + 1)}
    found = []
    pending = [(folder, "")]
    while pending:
        current, prefix = pending.pop()
        for entry in current.iterdir():
            name = prefix + entry.name
            real_folder = entry.is_dir() and not entry.is_symlink()
            if real_folder and name in folders:
                pending.append((entry, name + "/"))
            elif real_folder or name not in ours:
                found.append(name)
    return sorted(found)


def _writable(root: Path, name: str) -> bool:
    """``name`` can be replaced or removed under ``root`` without following a link: every folder
    on the way is a real folder (or not there yet), and ``name`` itself is not a folder."""
    path = root
    for part in name.split("/")[:-1]:
        path = path / part
        if path.is_symlink() or (path.exists() and not path.is_dir()):
            return False
    target = root / name
    return target.is_symlink() or not target.is_dir()


class FolderTarget:
    """A folder that ``command`` writes its results into, checked before any work is done (see the
    module docstring); ``expected`` names files it will surely write, refused then (forced or not)
    where a file it did not write holds the name."""

    def __init__(self, path: str, force: bool, command: str, option: str = "--out", expected: Iterable[str] = ()):
        if not path.strip():
            raise InputError(f"{option} is empty: name a folder to write")
        self.path = Path(path)
        self.force = force
        self.command = command
        if self.path.is_symlink():
            raise InputError(f"{option} {shown(path)} is a symbolic link: give the folder itself")
        if self.path.exists() and not self.path.is_dir():
            raise InputError(f"{option} {shown(path)} is not a folder")
        self.foreign: list[str] = []
        if self.path.is_dir():
            self.foreign = _foreign(self.path, _ours(self.path, command))
            if self.foreign and not force:
                listed = ", ".join(self.foreign[:3]) + (f" and {len(self.foreign) - 3} more" if len(self.foreign) > 3 else "")
                raise InputError(f"{option} {shown(path)} holds files this command did not write ({listed}): "
                                 "give an empty or new folder, or --force to replace only this command's files")
            self._refuse_theirs([*expected, MANIFEST])
            here = Path.cwd()
            if not self.foreign and (self.path.resolve() in (here, *here.parents) or os.path.ismount(self.path)):
                raise InputError(f"{option} {shown(path)} is the current folder, a folder holding it or a mount point, which "
                                 "cannot be replaced: name a new or empty sub-folder")
        parent = self.path.absolute().parent
        existing = next(folder for folder in (parent, *parent.parents) if folder.exists())
        if not existing.is_dir():
            raise InputError(f"cannot write {option} {shown(path)}: {shown(str(existing))} is a file, not a folder")
        try:
            parent.mkdir(parents=True, exist_ok=True)
            self.staging = Path(tempfile.mkdtemp(prefix=f".{self.path.name}.", dir=parent))
            self.staging.chmod(0o777 & ~_umask())
        except OSError as error:
            raise InputError(f"cannot write {option} {shown(path)}: {error.strerror or error}") from None

    def __enter__(self) -> "FolderTarget":
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None) -> None:
        self.discard()

    def write(self, files: Mapping[str, str | bytes]) -> None:
        """Write ``files`` (name: text, or bytes as they are) and a manifest, then put them in place."""
        encoded = {name: text.encode("utf-8") if isinstance(text, str) else text for name, text in files.items()}
        try:
            for name, data in encoded.items():
                (self.staging / name).parent.mkdir(parents=True, exist_ok=True)
                (self.staging / name).write_bytes(data)
            manifest = {name: hashlib.sha256(data).hexdigest() for name, data in sorted(encoded.items())}
            (self.staging / MANIFEST).write_text(json_text({"command": self.command, "files": manifest}), encoding="utf-8")
        except OSError as error:
            self.discard()
            raise InputError(f"cannot write {shown(str(self.path))}: {error.strerror or error}") from None
        if self.foreign:
            self._replace_ours(list(files) + [MANIFEST])
        else:
            self._swap()

    def _refuse_theirs(self, names: Iterable[str]) -> None:
        """Refuse (one line) where a file of one of ``names`` is there that this command did not
        write: --force replaces only the command's own files, never the user's of the same name."""
        ours = _ours(self.path, self.command)
        theirs = next((name for name in names if name not in ours and ((self.path / name).exists() or (self.path / name).is_symlink())), None)
        if theirs is not None:
            raise InputError(f"cannot write {shown(str(self.path / theirs), 80)}: a file of that name is there that {self.command} did not write "
                             "(its manifest does not list it): move it, or name another folder")

    def _swap(self) -> None:
        aside = self.staging.with_name(self.staging.name + ".old")
        with interrupts_deferred():
            existed = self.path.exists()
            if existed:
                os.rename(self.path, aside)
            os.rename(self.staging, self.path)
        if existed:
            shutil.rmtree(aside, ignore_errors=True)

    def _replace_ours(self, names: list[str]) -> None:
        blocked = next((name for name in names if not _writable(self.path, name)), None)
        if blocked is not None:
            raise InputError(f"cannot write {shown(str(self.path / blocked))}: a file, folder or link of yours is in the way")
        self._refuse_theirs(names)
        stale = sorted(name for name in _ours(self.path, self.command) - set(names) if _writable(self.path, name))
        with interrupts_deferred():
            for name in names:
                (self.path / name).parent.mkdir(parents=True, exist_ok=True)
                os.replace(self.staging / name, self.path / name)  # replaces a link, never follows it
            for name in stale:
                (self.path / name).unlink(missing_ok=True)
            for name in stale:
                for parent in list((self.path / name).relative_to(self.path).parents)[:-1]:
                    try:
                        (self.path / parent).rmdir()  # only when we emptied it
                    except OSError:
                        break

    def discard(self) -> None:
        """Remove the staging folder (whatever was not moved into place)."""
        shutil.rmtree(self.staging, ignore_errors=True)


MARK_WITHIN = 1 << 16
"""A file written here carries its mark within this many bytes of its start (a PNG's text chunks come before its image data)."""


class FileTarget:
    """A single output file (a plot), checked before the work and written whole. A file already at
    the path is replaced only when it carries ``mark`` (a file this program wrote there before);
    any other, or a link, is the user's and refused in one line."""

    def __init__(self, path: str, option: str, mark: bytes):
        if not path.strip():
            raise InputError(f"{option} is empty: name a file to write")
        self.path = Path(path)
        self.option = option
        self.mark = mark
        if self.path.is_dir():
            raise InputError(f"{option} {shown(path)} is a folder")
        self._refuse_theirs()
        parent = self.path.absolute().parent
        if not parent.is_dir():
            raise InputError(f"cannot write {option} {shown(path)}: no folder {shown(str(parent))}")
        try:
            handle, probe = tempfile.mkstemp(prefix=f".{self.path.name}.", dir=parent)
            os.close(handle)
            os.unlink(probe)
        except OSError as error:
            raise InputError(f"cannot write {option} {shown(path)}: {error.strerror or error}") from None

    def _refuse_theirs(self) -> None:
        """Refuse where a file is at the path that this program did not write (a link included)."""
        if not self.path.exists() and not self.path.is_symlink():
            return
        try:
            with open(self.path, "rb") as existing:
                ours = not self.path.is_symlink() and self.mark in existing.read(MARK_WITHIN)
        except OSError:
            ours = False
        if not ours:
            raise InputError(f"{self.option} {shown(str(self.path), 80)}: a file of that name is there that this program did not write: "
                             "move it, or name another file")

    def write(self, data: bytes) -> None:
        self._refuse_theirs()  # again: one may have come during the work
        parent = self.path.absolute().parent
        staging = ""
        try:
            handle, staging = tempfile.mkstemp(prefix=f".{self.path.name}.", dir=parent)
            os.fchmod(handle, 0o666 & ~_umask())  # mkstemp makes it 0600: follow the umask, as the other outputs do
            with os.fdopen(handle, "wb") as stream:
                stream.write(data)
            os.replace(staging, self.path)
        except OSError as error:
            if staging:
                Path(staging).unlink(missing_ok=True)
            raise InputError(f"cannot write {self.option} {shown(str(self.path))}: {error.strerror or error}") from None
