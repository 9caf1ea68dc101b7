"""The one error type the client raises for an answer the server refused."""


class LoupeError(Exception):
    """An HTTP error from the server (status, detail verbatim), or a failed wait (status 0)."""

    def __init__(self, status, detail, method="", path=""):
        super().__init__(detail)
        self.status = status
        self.detail = detail
        self.method = method
        self.path = path

    def __str__(self):
        where = f" ({self.method} {self.path})" if self.method else ""
        return f"{self.status}: {self.detail}{where}" if self.status else f"{self.detail}{where}"
