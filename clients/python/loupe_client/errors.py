"""The one error type the client raises for an answer the server refused."""


class LoupeError(Exception):
    """An HTTP error (status, the server's detail verbatim); status 0 for an unreachable server or a failed wait.
    `dataset_id` names the dataset create_dataset made before it failed."""

    def __init__(self, status, detail, method="", path=""):
        super().__init__(detail)
        self.status = status
        self.detail = detail
        self.method = method
        self.path = path
        self.dataset_id = None

    def __str__(self):
        where = f" ({self.method} {self.path})" if self.method else ""
        return f"{self.status}: {self.detail}{where}" if self.status else f"{self.detail}{where}"
