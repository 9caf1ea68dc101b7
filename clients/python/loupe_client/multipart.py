"""multipart/form-data bodies streamed from files on disk, with the Content-Length computed up front."""

import mimetypes
import os

CHUNK = 1 << 20
CRLF = b"\r\n"


def _quote(value):
    # Quotes and line breaks would end the header value early; RFC 7578 percent-encodes them.
    return value.replace("\\", "\\\\").replace('"', "%22").replace("\r", "%0D").replace("\n", "%0A")


class MultipartBody:
    """Fields and files as one re-iterable body (a retry iterates it again, reading the files again).

    `files` holds (field, path, file_name) triples; `on_file(path, size)` is called after each file is sent.
    """

    def __init__(self, fields=(), files=(), on_file=None):
        self.boundary = "loupe-" + os.urandom(16).hex()
        self.content_type = f"multipart/form-data; boundary={self.boundary}"
        self.on_file = on_file
        self._fields = [(name, self._header(name), str(value).encode("utf-8")) for name, value in fields]
        self._files = []
        for field, path, file_name in files:
            mime = mimetypes.guess_type(file_name)[0] or "application/octet-stream"
            self._files.append((path, os.path.getsize(path), self._header(field, file_name, mime)))
        closing = f"--{self.boundary}--\r\n".encode("ascii")
        self.length = (
            sum(len(header) + len(value) + len(CRLF) for _, header, value in self._fields)
            + sum(len(header) + size + len(CRLF) for _, size, header in self._files)
            + len(closing)
        )
        self._closing = closing

    def _header(self, name, file_name=None, mime=None):
        lines = [f"--{self.boundary}"]
        disposition = f'Content-Disposition: form-data; name="{_quote(name)}"'
        if file_name is not None:
            disposition += f'; filename="{_quote(file_name)}"'
        lines.append(disposition)
        if mime:
            lines.append(f"Content-Type: {mime}")
        return ("\r\n".join(lines) + "\r\n\r\n").encode("utf-8")

    def __iter__(self):
        for _, header, value in self._fields:
            yield header + value + CRLF
        for path, size, header in self._files:
            yield header
            sent = 0
            with open(path, "rb") as handle:
                while True:
                    chunk = handle.read(min(CHUNK, size - sent))
                    if not chunk:
                        break
                    sent += len(chunk)
                    yield chunk
            if sent != size:
                raise OSError(f"{path} changed size while it was being sent ({size} bytes expected, {sent} read)")
            yield CRLF
            if self.on_file:
                self.on_file(path, size)
        yield self._closing
