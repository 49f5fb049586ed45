"""Writing files so that nothing is half-written and a user's files are never overwritten.

A folder of results is written whole into a fresh folder beside the target and moved into place
(the old one moved aside in the same instant, Ctrl-C deferred); a target holding files that were
not written by us is refused unless forced, and even then only our own files are replaced, never
through a symbolic link. A single file (a plot) is written beside its path and renamed over it.
A manifest (``manifest.json``) lists what was written, with each file's SHA-256.
"""

import hashlib
import json
import os
import shutil
import signal
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType, TracebackType

from .errors import InputError
from .parsing import shown

MANIFEST = "manifest.json"


@contextmanager
def interrupts_deferred() -> Iterator[None]:
    """Hold Ctrl-C while the block runs (a few renames), then deliver it."""
    received: list[int] = []

    def hold(number: int, frame: FrameType | None) -> None:
        received.append(number)

    try:
        previous = signal.signal(signal.SIGINT, hold)
    except ValueError:  # not the main thread: nothing to defer
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
        if received:
            raise KeyboardInterrupt


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _ours(folder: Path) -> set[str]:
    """The files a manifest in ``folder`` says we wrote (and the manifest)."""
    try:
        listed = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))["files"]
        return set(listed) | {MANIFEST} if isinstance(listed, dict) else set()
    except (OSError, ValueError, KeyError, TypeError):
        return set()


class FolderTarget:
    """A folder to write results into, checked before any work is done (see the module docstring)."""

    def __init__(self, path: str, force: bool, option: str = "--out"):
        if not path.strip():
            raise InputError(f"{option} is empty: name a folder to write")
        self.path = Path(path)
        self.force = force
        if self.path.is_symlink():
            raise InputError(f"{option} {shown(path)} is a symbolic link: give the folder itself")
        if self.path.exists() and not self.path.is_dir():
            raise InputError(f"{option} {shown(path)} is not a folder")
        self.foreign: list[str] = []
        if self.path.is_dir():
            ours = _ours(self.path)
            self.foreign = sorted(entry.name for entry in self.path.iterdir() if entry.name not in ours)
            if self.foreign and not force:
                listed = ", ".join(self.foreign[:3]) + (f" and {len(self.foreign) - 3} more" if len(self.foreign) > 3 else "")
                raise InputError(f"{option} {shown(path)} holds files this command did not write ({listed}): "
                                 "give an empty or new folder, or --force to replace only this command's files")
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

    def write(self, files: dict[str, str]) -> None:
        """Write ``files`` (name: text) and a manifest, then put them in place."""
        try:
            for name, text in files.items():
                (self.staging / name).write_text(text, encoding="utf-8")
            manifest = {name: hashlib.sha256(text.encode("utf-8")).hexdigest() for name, text in sorted(files.items())}
            (self.staging / MANIFEST).write_text(json.dumps({"files": manifest}, indent=2) + "\n", encoding="utf-8")
        except OSError as error:
            self.discard()
            raise InputError(f"cannot write {shown(str(self.path))}: {error.strerror or error}") from None
        if self.foreign:
            self._replace_ours(list(files) + [MANIFEST])
        else:
            self._swap()

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
        stale = _ours(self.path) - set(names)
        with interrupts_deferred():
            for name in names:
                os.replace(self.staging / name, self.path / name)  # replaces a link, never follows it
            for name in stale:
                (self.path / name).unlink(missing_ok=True)

    def discard(self) -> None:
        """Remove the staging folder (whatever was not moved into place)."""
        shutil.rmtree(self.staging, ignore_errors=True)


class FileTarget:
    """A single output file (a plot), checked before the work and written whole."""

    def __init__(self, path: str, option: str):
        if not path.strip():
            raise InputError(f"{option} is empty: name a file to write")
        self.path = Path(path)
        self.option = option
        if self.path.is_dir():
            raise InputError(f"{option} {shown(path)} is a folder")
        parent = self.path.absolute().parent
        if not parent.is_dir():
            raise InputError(f"cannot write {option} {shown(path)}: no folder {shown(str(parent))}")
        try:
            handle, probe = tempfile.mkstemp(prefix=f".{self.path.name}.", dir=parent)
            os.close(handle)
            os.unlink(probe)
        except OSError as error:
            raise InputError(f"cannot write {option} {shown(path)}: {error.strerror or error}") from None

    def write(self, data: bytes) -> None:
        parent = self.path.absolute().parent
        staging = ""
        try:
            handle, staging = tempfile.mkstemp(prefix=f".{self.path.name}.", dir=parent)
            with os.fdopen(handle, "wb") as stream:
                stream.write(data)
            os.replace(staging, self.path)
        except OSError as error:
            if staging:
                Path(staging).unlink(missing_ok=True)
            raise InputError(f"cannot write {self.option} {shown(str(self.path))}: {error.strerror or error}") from None
