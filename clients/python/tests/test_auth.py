"""Tokens against the real server: refreshed before expiry and after a 401, refused with the server's detail, and
429s waited out as Retry-After says (the server under test allows 3 failures a key per 2 s window)."""

import time
import unittest

from loupe_client import Client, LoupeError
from support import client, env


class TokenRefreshTest(unittest.TestCase):
    def test_a_short_lived_token_is_signed_again_before_it_expires(self):
        c = client(token_ttl=1)
        me = c.me()
        first = c.tokens.token()
        time.sleep(1.05)
        self.assertEqual(c.me(), me)
        self.assertNotEqual(c.tokens.token(), first)

    def test_a_refused_token_is_replaced_once_and_the_request_sent_again(self):
        c = client()
        good = c.me()
        c.tokens._token = "not.a.token"
        c.tokens._expires_at = float("inf")
        self.assertEqual(c.me(), good)
        self.assertNotEqual(c.tokens.token(), "not.a.token")

    def test_a_wrong_secret_raises_the_servers_detail(self):
        c = Client(env("LOUPE_URL"), env("LOUPE_SPARE_API_KEY"), "wrong-secret", retries=0)
        with self.assertRaises(LoupeError) as caught:
            c.me()
        self.assertEqual((caught.exception.status, caught.exception.detail), (401, "Invalid token: signature verification failed"))
        self.assertEqual((caught.exception.method, caught.exception.path), ("GET", "/api/v1/auth/me"))

    def test_too_many_failures_give_429_which_is_retried_after_retry_after(self):
        url, key = env("LOUPE_URL"), env("LOUPE_SPARE_API_KEY")
        bad = Client(url, key, "wrong-secret", retries=0)
        refused = None
        for _ in range(4):
            try:
                bad.me()
            except LoupeError as err:
                refused = err
        self.assertEqual(refused.status, 429)
        self.assertRegex(refused.detail, r"^Too many failed authentication attempts; retry in [12] s$")
        good = Client(url, key, env("LOUPE_SPARE_API_SECRET"))
        started = time.monotonic()
        self.assertIn("user_id", good.me())
        self.assertGreaterEqual(time.monotonic() - started, 0.9)


if __name__ == "__main__":
    unittest.main()
