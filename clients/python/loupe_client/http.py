"""Requests with a bearer token, retries with backoff, and the server's {"detail"} surfaced as LoupeError."""

import email.utils
import http.client
import json as jsonlib
import random
import socket
import time
import urllib.error
import urllib.parse
import urllib.request

from .errors import LoupeError

IDEMPOTENT = {"GET", "HEAD", "PUT", "DELETE", "OPTIONS"}
RETRY_STATUSES = {502, 503, 504}
MAX_RETRY_AFTER = 60.0


class Response:
    """A whole (small) answer: status, lower-cased headers and the body."""

    def __init__(self, status, headers, body):
        self.status = status
        self.headers = headers
        self.body = body

    def json(self):
        return jsonlib.loads(self.body) if self.body else None


def _query_string(query):
    pairs = []
    for key, value in (query or {}).items():
        if value is None:
            continue
        if isinstance(value, bool):
            value = "true" if value else "false"
        elif isinstance(value, (list, tuple)):
            value = ",".join(str(v) for v in value)
        pairs.append((key, str(value)))
    return urllib.parse.urlencode(pairs)


def _detail(status, reason, raw):
    text = raw.decode("utf-8", "replace") if raw else ""
    try:
        parsed = jsonlib.loads(text)
    except ValueError:
        parsed = None
    if isinstance(parsed, dict) and isinstance(parsed.get("detail"), str):
        return parsed["detail"]
    return text or reason or f"HTTP {status}"


def _retry_after(value):
    """Seconds to wait from a Retry-After header: a number of seconds or an HTTP date."""
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        when = email.utils.parsedate_to_datetime(value)
        return max(0.0, when.timestamp() - time.time()) if when else None


class Transport:
    """Sends requests to one server; `retries` more tries on 429, on 502/503/504 and lost connections."""

    def __init__(self, base_url, tokens=None, retries=4, timeout=60.0, user_agent="loupe-python-client"):
        self.base_url = base_url.rstrip("/")
        self.tokens = tokens
        self.retries = retries
        self.timeout = timeout
        self.user_agent = user_agent
        self._opener = urllib.request.build_opener()

    def url(self, path, query=None):
        qs = _query_string(query)
        full = path if path.startswith(("http://", "https://")) else self.base_url + path
        return f"{full}{'&' if '?' in full else '?'}{qs}" if qs else full

    def request(self, method, path, query=None, json=None, body=None, headers=None, idempotent=None, stream=False, auth=True, timeout=None):
        """The answer as a Response, or the open urllib response when `stream` (the caller closes it).

        `body` is bytes or a re-iterable object with `length` and `content_type` (multipart.MultipartBody).
        A request that is not idempotent is retried only when the server cannot have acted on it (429, refused connection).
        """
        method = method.upper()
        if idempotent is None:
            idempotent = method in IDEMPOTENT
        url = self.url(path, query)
        send_headers = {"User-Agent": self.user_agent, "Accept": "application/json"}
        data = body
        if json is not None:
            data = jsonlib.dumps(json).encode("utf-8")
            send_headers["Content-Type"] = "application/json"
        elif body is not None and hasattr(body, "content_type"):
            send_headers["Content-Type"] = body.content_type
            send_headers["Content-Length"] = str(body.length)
        send_headers.update(headers or {})
        refreshed = False
        attempt = 0
        while True:
            if auth and self.tokens is not None:
                send_headers["Authorization"] = f"Bearer {self.tokens.token()}"
            request = urllib.request.Request(url, data=data, headers=send_headers, method=method)
            try:
                response = self._opener.open(request, timeout=timeout or self.timeout)
            except urllib.error.HTTPError as err:
                raw = err.read()
                err.close()
                if err.code == 401 and auth and not refreshed and self.tokens is not None and self.tokens.can_refresh:
                    refreshed = True
                    self.tokens.refresh()
                    continue
                retryable = err.code == 429 or (idempotent and err.code in RETRY_STATUSES)
                if retryable and attempt < self.retries:
                    self._pause(attempt, _retry_after(err.headers.get("Retry-After")))
                    attempt += 1
                    continue
                raise LoupeError(err.code, _detail(err.code, err.reason, raw), method, path) from None
            except (urllib.error.URLError, ConnectionError, socket.timeout, http.client.HTTPException) as err:
                reason = getattr(err, "reason", err)
                never_sent = isinstance(reason, ConnectionRefusedError)
                if (idempotent or never_sent) and attempt < self.retries:
                    self._pause(attempt, None)
                    attempt += 1
                    continue
                raise LoupeError(0, f"Cannot reach {self.base_url}: {reason}", method, path) from None
            if stream:
                return response
            with response:
                raw = response.read()
                return Response(response.status, {k.lower(): v for k, v in response.headers.items()}, raw)

    def _pause(self, attempt, retry_after):
        # Full jitter on an exponential step, unless the server said how long to wait.
        delay = min(MAX_RETRY_AFTER, retry_after) if retry_after is not None else random.uniform(0, min(8.0, 0.5 * 2 ** attempt))
        time.sleep(delay)
