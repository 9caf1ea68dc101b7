"""A TCP proxy in front of the server that cuts the first export download after some bytes, as a dropped
connection would, and records every request line and Range header it forwards."""

import socket
import threading


class CuttingProxy:
    def __init__(self, upstream_port, cut_after):
        self.upstream_port = upstream_port
        self.cut_after = cut_after
        self.requests = []
        self.cut = False
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        threading.Thread(target=self._accept, daemon=True).start()

    def close(self):
        self.listener.close()

    def _accept(self):
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            threading.Thread(target=self._serve, args=(client,), daemon=True).start()

    def _serve(self, client):
        upstream = socket.create_connection(("127.0.0.1", self.upstream_port))
        head = b""
        while b"\r\n\r\n" not in head:
            data = client.recv(65536)
            if not data:
                break
            head += data
        lines = head.split(b"\r\n\r\n")[0].decode("latin-1").split("\r\n")
        ranges = [line.split(":", 1)[1].strip() for line in lines[1:] if line.lower().startswith("range:")]
        self.requests.append((lines[0], ranges[0] if ranges else None))
        upstream.sendall(head)
        cutting = " /api/v1/exports/" in lines[0] and not self.cut
        if cutting:
            self.cut = True
        threading.Thread(target=self._pipe, args=(client, upstream, None), daemon=True).start()
        self._pipe(upstream, client, self.cut_after if cutting else None)

    @staticmethod
    def _pipe(source, target, limit):
        sent = 0
        try:
            while limit is None or sent < limit:
                data = source.recv(65536 if limit is None else min(65536, limit - sent))
                if not data:
                    break
                target.sendall(data)
                sent += len(data)
        except OSError:
            pass
        for s in (source, target):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            s.close()
