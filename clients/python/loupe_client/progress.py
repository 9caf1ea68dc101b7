"""Upload progress: files and bytes sent, rate and time left, reported as a dict."""

import time


class UploadProgress:
    def __init__(self, files, skipped, callback):
        self.files_total = len(files)
        self.bytes_total = sum(f["size"] for f in files)
        self.skipped = skipped
        self.files_done = 0
        self.bytes_done = 0
        self.callback = callback
        self.started = time.monotonic()

    def file_sent(self, _path, size):
        self.files_done += 1
        self.bytes_done += size
        self.report()

    def report(self):
        if not self.callback:
            return
        elapsed = max(time.monotonic() - self.started, 1e-6)
        rate = self.bytes_done / elapsed
        left = self.bytes_total - self.bytes_done
        self.callback({
            "files_done": self.files_done,
            "files_total": self.files_total,
            "bytes_done": self.bytes_done,
            "bytes_total": self.bytes_total,
            "skipped": self.skipped,
            "rate_bytes_per_second": rate,
            "eta_seconds": left / rate if rate > 0 else None,
        })
