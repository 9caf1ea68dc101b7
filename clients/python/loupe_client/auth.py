"""HS256 bearer tokens signed from an API key pair, as src/modules/auth/auth.service.ts signClientToken does."""

import base64
import hashlib
import hmac
import json
import time


def _b64url(raw):
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode("ascii")


def sign_client_token(api_key, api_secret, ttl_seconds, now=None):
    """A JWT with header {alg HS256, typ JWT, kid api_key} and claims {sub, iss 'sdk', iat, exp}."""
    iat = int(now if now is not None else time.time())
    header = {"alg": "HS256", "typ": "JWT", "kid": api_key}
    payload = {"sub": api_key, "iss": "sdk", "iat": iat, "exp": iat + int(ttl_seconds)}
    signing_input = ".".join(_b64url(json.dumps(part, separators=(",", ":")).encode("utf-8")) for part in (header, payload))
    signature = hmac.new(api_secret.encode("utf-8"), signing_input.encode("ascii"), hashlib.sha256).digest()
    return f"{signing_input}.{_b64url(signature)}"


class TokenSource:
    """Hands out a token, signing a new one before the current one expires or after the server refused it."""

    def __init__(self, api_key=None, api_secret=None, token=None, ttl_seconds=900):
        if token is None and not (api_key and api_secret):
            raise ValueError("give api_key and api_secret, or a ready token")
        self.api_key = api_key
        self._secret = api_secret
        self.ttl_seconds = int(ttl_seconds)
        self._token = token
        self._expires_at = float("inf") if token is not None else 0.0

    @property
    def can_refresh(self):
        return self._secret is not None

    def token(self):
        # Refresh with a fifth of the lifetime left (at most a minute), so a token never expires on the way.
        margin = min(60.0, self.ttl_seconds / 5)
        if self.can_refresh and time.time() >= self._expires_at - margin:
            self.refresh()
        return self._token

    def refresh(self):
        now = time.time()
        self._token = sign_client_token(self.api_key, self._secret, self.ttl_seconds, now)
        self._expires_at = int(now) + self.ttl_seconds
        return self._token
