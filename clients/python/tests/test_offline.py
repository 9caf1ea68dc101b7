"""The parts that need no server: the folder walk, multipart bodies, token signing, standard library only."""

import base64
import hashlib
import hmac
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import unittest

import loupe_client
from loupe_client.auth import sign_client_token
from loupe_client.multipart import MultipartBody
from loupe_client.walk import media_kind, walk_media
from support import PHOTOS


def _b64decode(part):
    return base64.urlsafe_b64decode(part + "=" * (-len(part) % 4))


class WalkTest(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.mkdtemp(prefix="loupe-walk-")
        self.addCleanup(shutil.rmtree, self.folder)

    def write(self, relative, data):
        path = os.path.join(self.folder, relative)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as handle:
            handle.write(data)
        return path

    def test_keeps_media_by_their_bytes_recursively_and_counts_the_rest(self):
        shutil.copy(os.path.join(PHOTOS, "dog.jpg"), os.path.join(self.folder, "dog.jpg"))
        os.makedirs(os.path.join(self.folder, "a", "b"))
        shutil.copy(os.path.join(PHOTOS, "coffee.png"), os.path.join(self.folder, "a", "b", "no-extension"))
        self.write("notes.txt", b"not media")
        self.write("a/fake.jpg", b"plain text with an image's extension")
        self.write("a/empty.png", b"")
        self.write("a/archive.zip", b"PK\x03\x04" + b"\x00" * 40)

        files, skipped = walk_media(self.folder)
        self.assertEqual([(f["relative"], f["kind"]) for f in files], [("a/b/no-extension", "image"), ("dog.jpg", "image")])
        self.assertEqual(files[1]["size"], os.path.getsize(os.path.join(PHOTOS, "dog.jpg")))
        self.assertEqual(sorted(os.path.relpath(s["path"], self.folder) for s in skipped),
                         sorted(["notes.txt", os.path.join("a", "fake.jpg"), os.path.join("a", "empty.png"), os.path.join("a", "archive.zip")]))
        self.assertEqual({s["reason"] for s in skipped}, {"not an image or video"})

    def test_fixture_photos_all_count_as_media_and_the_notes_do_not(self):
        files, skipped = walk_media(PHOTOS)
        self.assertEqual(len(files), 8)
        self.assertEqual([os.path.basename(s["path"]) for s in skipped], ["SOURCES.md"])
        self.assertIn(("small.heic", "image"), [(f["relative"], f["kind"]) for f in files])

    def test_video_and_image_signatures(self):
        self.assertEqual(media_kind(b"\x00\x00\x00\x18ftypmp42\x00\x00\x00\x00mp42isom"), "video")
        self.assertEqual(media_kind(b"\x00\x00\x00\x18ftypM4A \x00\x00\x00\x00M4A isom"), None)
        self.assertEqual(media_kind(b"RIFF\x00\x00\x00\x00WEBPVP8 "), "image")
        self.assertEqual(media_kind(b"RIFF\x00\x00\x00\x00AVI LIST"), "video")
        self.assertEqual(media_kind(b"GIF89a\x01\x00"), "image")
        self.assertEqual(media_kind(b"\x1a\x45\xdf\xa3\x9f\x42\x86\x81\x01\x42\x82\x84webm"), "video")

    def test_a_missing_folder_is_an_error(self):
        with self.assertRaises(NotADirectoryError):
            walk_media(os.path.join(self.folder, "nowhere"))


class MultipartTest(unittest.TestCase):
    def test_content_length_matches_the_streamed_bytes_on_every_pass(self):
        paths = [os.path.join(PHOTOS, name) for name in ("dog.jpg", "kite.jpg")]
        sent = []
        body = MultipartBody([("auto_reindex", "true")], [("files", p, f"dir/{os.path.basename(p)}") for p in paths], on_file=lambda p, size: sent.append(size))
        first = b"".join(body)
        second = b"".join(body)
        self.assertEqual(len(first), body.length)
        self.assertEqual(len(second), body.length)
        self.assertEqual(sent, [os.path.getsize(p) for p in paths] * 2)
        self.assertTrue(first.startswith(f"--{body.boundary}\r\n".encode()))
        self.assertTrue(first.endswith(f"--{body.boundary}--\r\n".encode()))
        head = first[:400]
        self.assertIn(b'name="files"; filename="dir/dog.jpg"\r\nContent-Type: image/jpeg\r\n\r\n\xff\xd8\xff', head)
        with open(paths[0], "rb") as handle:
            self.assertTrue(handle.read() in first, "the first file's bytes are in the body")

    def test_quotes_and_line_breaks_in_names_cannot_end_the_header(self):
        body = MultipartBody([('a"b', 'x')])
        self.assertIn(b'name="a%22b"\r\n\r\nx\r\n', b"".join(body))


class TokenTest(unittest.TestCase):
    def test_signs_hs256_with_the_claims_the_server_checks(self):
        token = sign_client_token("lk_abc", "secret", 120, now=1_700_000_000)
        header, payload, signature = token.split(".")
        self.assertEqual(json.loads(_b64decode(header)), {"alg": "HS256", "typ": "JWT", "kid": "lk_abc"})
        self.assertEqual(json.loads(_b64decode(payload)), {"sub": "lk_abc", "iss": "sdk", "iat": 1_700_000_000, "exp": 1_700_000_120})
        expected = hmac.new(b"secret", f"{header}.{payload}".encode(), hashlib.sha256).digest()
        self.assertEqual(_b64decode(signature), expected)
        self.assertNotIn("=", token)


class UnreachableServerTest(unittest.TestCase):
    def test_a_refused_connection_is_retried_then_raised_with_status_0(self):
        listener = socket.socket()
        listener.bind(("127.0.0.1", 0))
        port = listener.getsockname()[1]
        listener.close()  # nothing listens there now
        c = loupe_client.Client(f"http://127.0.0.1:{port}", "lk_x", "secret", retries=1)
        with self.assertRaises(loupe_client.LoupeError) as caught:
            c.me()
        self.assertEqual(caught.exception.status, 0)
        self.assertTrue(caught.exception.detail.startswith(f"Cannot reach http://127.0.0.1:{port}: "), caught.exception.detail)


class StandardLibraryOnlyTest(unittest.TestCase):
    def test_the_package_imports_nothing_outside_the_standard_library(self):
        # A fresh interpreter without site-packages imports every module of the package and lists what it loaded.
        package = os.path.dirname(os.path.dirname(os.path.abspath(loupe_client.__file__)))
        script = (
            "import pkgutil, importlib, sys, loupe_client\n"
            "for m in pkgutil.iter_modules(loupe_client.__path__): importlib.import_module('loupe_client.' + m.name)\n"
            "print(' '.join(sorted({n.split('.')[0] for n in sys.modules} - set(sys.stdlib_module_names))))"
        )
        loaded = subprocess.run([sys.executable, "-S", "-c", script], env={"PYTHONPATH": package}, capture_output=True, text=True, check=True)
        self.assertEqual(loaded.stdout.split(), ["__main__", "loupe_client"])
        self.assertEqual(loupe_client.__all__, ["Client", "LoupeError", "walk_media"])


if __name__ == "__main__":
    unittest.main()
