"""Reading a file the user names (a bets, rules or figures file): a regular file of bounded size,
never a pipe or a device that would hang the reader or fill the memory.

>>> import os, tempfile
>>> folder = tempfile.mkdtemp()
>>> with open(os.path.join(folder, "bets.toml"), "w", encoding="utf-8") as file:
...     _ = file.write("[[bet]]\\n")
>>> user_text(os.path.join(folder, "bets.toml"))
'[[bet]]\\n'
>>> os.mkfifo(os.path.join(folder, "pipe"))
>>> user_text(os.path.join(folder, "pipe"))
Traceback (most recent call last):
OSError: [Errno 22] not a regular file (a pipe, a device or a folder)
"""

import errno
import os
import stat

TEXT_LIMIT = 16 << 20
"""The largest file read, in bytes (a bets, rules or figures file is a few kilobytes)."""


def user_text(path: str) -> str:
    """The UTF-8 text of the regular file at ``path``; OSError (its ``strerror`` says why) for a
    file that cannot be read, is not a regular file or is larger than :data:`TEXT_LIMIT`;
    UnicodeDecodeError for one that is not UTF-8. A pipe is refused without waiting for a writer."""
    handle = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    try:
        if not stat.S_ISREG(os.fstat(handle).st_mode):
            raise OSError(errno.EINVAL, "not a regular file (a pipe, a device or a folder)")
        data = b""
        while len(data) <= TEXT_LIMIT and (block := os.read(handle, TEXT_LIMIT + 1 - len(data))):
            data += block
    finally:
        os.close(handle)
    if len(data) > TEXT_LIMIT:
        raise OSError(errno.EFBIG, f"larger than {TEXT_LIMIT >> 20} MiB")
    return data.decode("utf-8")
