#!/usr/bin/env python3
"""A fault-injecting HTTP/1.1 file server for the downloader's tests (loopback only).

Usage: python3 fault_server.py --root DIR [--lifetime SECONDS]    (standard library only)

Binds 127.0.0.1 on a free port, prints "PORT <n>" (flushed) once listening, and exits when
its stdin reaches EOF (the parent closed it, or died) or when the lifetime (default 900 s)
ends. Keep-alive: every response carries Content-Length unless it says Connection: close.

The first path component picks the behaviour, the rest is a file's path under --root; F below.
Counters are per full path+query ("/drop/a.bin?after=1" and "?after=2" count apart).

Validators (plain, drop, stall, slow): etag=strong (the default), etag=weak (W/"<sha256 hex>",
as nginx gives a gzipped file) or etag=none; lastmod=1 adds Last-Modified, the file's mtime as
an HTTP-date (every response has Date). If-Range is an entity tag when it starts with '"' or
'W/': it matches only a strong ETag equal to it (a weak one never matches, RFC 9110 §13.1.5);
otherwise a date, matching only a Last-Modified sent and equal to it (as nginx compares it).
If-Modified-Since equal to Last-Modified, with no If-None-Match, gives 304.

  /plain/F              Strong ETag "<sha256 hex of the bytes>", Content-Length,
                        Accept-Ranges: bytes. Range "bytes=a-", "bytes=a-b", "bytes=-n": 206
                        with Content-Range, 416 (Content-Range: bytes */size) if a >= size;
                        several ("bytes=a-b,c-d"): 206 multipart/byteranges, one part a
                        range, as nginx sends them; other Range values are ignored (200). If-Range: 206 only if it equals
                        the ETag, else 200 with everything. If-None-Match matching the ETag
                        (or "*"): 304, no body. HEAD: the same headers, no body.
  /drop/F?after=N&times=K[&reset=1]
                        Like plain, but the first K GETs send N bytes of the body they promise
                        (whatever range was asked) and close the connection (FIN; reset=1:
                        RST); later GETs are served fully. HEADs are plain and not counted.
                        ranges=0: Range and If-Range are ignored, as /norange does.
  /stall/F?after=N&seconds=S&times=K
                        The first K GETs send N body bytes, then nothing for S seconds
                        (at most 300), then close; later GETs are plain.
  /slow/F?chunk=N&pause=S
                        Like plain (ETag, Range, If-Range, 304), but the body goes out N bytes
                        (default 65536) at a time with S seconds (default 0.05, at most 5)
                        between: a slow link, to interrupt a transfer midway.
  /flaky/F?fail=K&status=C
                        The first K requests (GET or HEAD) get status C (default 500; 503,
                        408, 429 with Retry-After: 0, 404, 403, any 4xx/5xx) with a short
                        body and Content-Length, connection kept; later ones are plain.
  /wrong/F              Like plain (same length, same ETag) but the byte in the middle of the
                        file is flipped: a server that lies.
  /toomany/F?extra=N    200, no Content-Length, Connection: close: the file, then N extra
                        bytes ("X"), then close. Range is ignored.
  /norange/F            Ignores Range and If-Range: always 200 with the whole file (no
                        Accept-Ranges). If-None-Match still gives 304.
  /changed/F            ETag "v<k>", k counting this URL's requests, so it changes every time
                        while the bytes stay the same; Range is honoured only when If-Range
                        equals the current ETag (so never in practice).
  /redirect?to=URL&status=C
                        Redirect (301, 302 default, 303, 307, 308) to URL, as given.
  /chain/N/F[?status=C] N redirects in a row: /chain/N/F -> /chain/N-1/F -> ... -> /plain/F,
                        absolute URLs on http://127.0.0.1:<port>, query kept.
  /_stats               JSON list of every other request so far, oldest first: {"method",
                        "path" (with query), "range", "ifRange", "ifNoneMatch" (null when
                        absent), "ifModifiedSince", "status", "bytes" (body bytes sent), "payload" (of those, the
                        file's bytes: a multipart answer's part headers left out), "cut"
                        (closed before the body it promised was sent)}.
  /_reset               Clears the stats and every counter. Neither is recorded in the stats.

Anything else, and a file missing or outside --root, is 404.
"""

import argparse
import hashlib
import json
import os
import signal
import socket
import struct
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

MAX_STALL_SECONDS = 300.0
REDIRECTS = {301, 302, 303, 307, 308}
UNSATISFIABLE = "unsatisfiable"


class State:
    """What the handler threads share: the root, the stats, the per-URL counters."""

    def __init__(self, root, port):
        self.root = os.path.realpath(root)
        self.port = port
        self.stopping = threading.Event()  # set when the server is shutting down
        self.lock = threading.Lock()
        self.stats = []
        self.counters = {}

    def count(self, key):
        """This request's number (1, 2, ...) among those for `key`."""
        with self.lock:
            self.counters[key] = self.counters.get(key, 0) + 1
            return self.counters[key]

    def record(self, entry):
        with self.lock:
            self.stats.append(entry)

    def snapshot(self):
        with self.lock:
            return list(self.stats)

    def reset(self):
        with self.lock:
            self.stats.clear()
            self.counters.clear()


def parse_range(value, size):
    """(first, last) for one "bytes=a-", "bytes=a-b" or "bytes=-n"; UNSATISFIABLE; None to ignore."""
    unit, _, spec = value.strip().partition("=")
    first, dash, last = spec.strip().partition("-")
    if unit.strip().lower() != "bytes" or "," in spec or not dash:
        return None
    try:
        if first.strip() == "":  # suffix: the last n bytes
            n = int(last)
            return (max(0, size - n), size - 1) if n > 0 and size > 0 else UNSATISFIABLE
        a = int(first)
        b = int(last) if last.strip() else None
    except ValueError:
        return None
    if a < 0 or (b is not None and b < a):
        return None
    return UNSATISFIABLE if a >= size else (a, size - 1 if b is None else min(b, size - 1))


def strong_etag(data):
    return '"' + hashlib.sha256(data).hexdigest() + '"'


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "FaultServer/1"
    timeout = 120  # an idle keep-alive connection is dropped after this

    def log_message(self, format, *args):  # quiet: the tests read /_stats instead
        pass

    def do_GET(self):
        self.route()

    def do_HEAD(self):
        self.route()

    # --- dispatch and bookkeeping ---

    def route(self):
        state = self.server.state
        url = urlsplit(self.path)
        kind, _, self.rest = url.path.lstrip("/").partition("/")
        self.query = {k: v[-1] for k, v in parse_qs(url.query).items()}
        self.status, self.sent, self.promised, self.cut = 0, 0, None, False
        self.part_headers = []  # (start, end) in the body of each multipart delimiter and headers
        if kind == "_stats":
            return self.reply(200, {"Content-Type": "application/json"}, json.dumps(state.snapshot()).encode())
        if kind == "_reset":
            state.reset()
            return self.reply(200, {}, b"reset\n")
        try:
            ROUTES.get(kind, Handler.not_found)(self)
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True
        finally:
            if self.promised is not None and self.sent < self.promised:
                self.cut = True
            state.record({
                "method": self.command, "path": self.path, "range": self.headers.get("Range"),
                "ifRange": self.headers.get("If-Range"), "ifNoneMatch": self.headers.get("If-None-Match"),
                "ifModifiedSince": self.headers.get("If-Modified-Since"),
                "status": self.status, "bytes": self.sent, "cut": self.cut,
                "payload": self.sent - sum(max(0, min(end, self.sent) - start) for start, end in self.part_headers),
            })

    def int_param(self, name, default):
        try:
            return int(self.query.get(name, default))
        except ValueError:
            return default

    def load(self):
        """The bytes of the file named by the path after the route, or None (missing, outside root)."""
        root = self.server.state.root
        path = os.path.realpath(os.path.join(root, self.rest))
        if not path.startswith(root + os.sep) or not os.path.isfile(path):
            return None
        self.mtime = os.stat(path).st_mtime
        with open(path, "rb") as f:
            return f.read()

    # --- writing ---

    def start(self, status, headers, length=None):
        """Status line and headers; Content-Length when `length` is given."""
        self.status = status
        self.send_response(status)
        for name, value in headers.items():
            self.send_header(name, value)
        if length is not None:
            self.send_header("Content-Length", str(length))
        self.end_headers()

    def write(self, data):
        if self.command != "HEAD" and data:
            self.wfile.write(data)
            self.sent += len(data)

    def reply(self, status, headers, body):
        """A whole response: 304 has no Content-Length and no body, every other one has both."""
        self.start(status, headers, None if status == 304 else len(body))
        if self.command != "HEAD":
            self.promised = len(body)
            self.write(body if status != 304 else b"")

    def hang_up(self, reset=False):
        """Closes the connection now: FIN, or RST when `reset`."""
        self.close_connection = True
        self.wfile.flush()
        if reset:
            self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            self.connection.close()
        else:
            self.connection.shutdown(socket.SHUT_RDWR)

    def not_found(self):
        self.reply(404, {"Content-Type": "text/plain"}, b"not found\n")

    # --- plain semantics, shared by most routes ---

    def validators(self, etag):
        """The ETag (`etag` as the route made it, weakened, or None) and Last-Modified (or None)
        the query asks for."""
        kind = self.query.get("etag", "strong")
        etag = None if kind == "none" else "W/" + etag if kind == "weak" else etag
        modified = self.date_time_string(int(self.mtime)) if self.query.get("lastmod") == "1" else None
        return etag, modified

    def select(self, data, etag, ranges=True, need_if_range=False):
        """(status, headers, body) for a GET or HEAD of `data` whose ETag is `etag` (as the
        query's validators make it)."""
        etag, modified = self.validators(etag)
        headers = {"Content-Type": "application/octet-stream"}
        if etag is not None:
            headers["ETag"] = etag
        if modified is not None:
            headers["Last-Modified"] = modified
        if ranges:
            headers["Accept-Ranges"] = "bytes"
        none_match = self.headers.get("If-None-Match")
        if none_match is not None:
            tags = [t.strip().removeprefix("W/") for t in none_match.split(",")]
            if "*" in tags or (etag is not None and etag.removeprefix("W/") in tags):
                return 304, headers, b""
        elif modified is not None and self.headers.get("If-Modified-Since") == modified:
            return 304, headers, b""
        wanted = self.headers.get("Range") if ranges else None
        if_range = self.headers.get("If-Range")
        if if_range is not None:
            value = if_range.strip()
            if value.startswith('"') or value.startswith("W/"):
                matches = etag is not None and not etag.startswith("W/") and value == etag
            else:
                matches = modified is not None and value == modified
            if not matches:
                wanted = None
        elif need_if_range:
            wanted = None
        if wanted is not None and "," in wanted:
            unit, _, specs = wanted.partition("=")
            spans = [parse_range(unit + "=" + spec, len(data)) for spec in specs.split(",")]
            if unit.strip().lower() == "bytes" and all(span not in (None, UNSATISFIABLE) for span in spans):
                return self.multipart(data, spans, headers)
            wanted = None
        span = parse_range(wanted, len(data)) if wanted is not None else None
        if span == UNSATISFIABLE:
            headers["Content-Range"] = f"bytes */{len(data)}"
            return 416, headers, b""
        if span is not None:
            first, last = span
            headers["Content-Range"] = f"bytes {first}-{last}/{len(data)}"
            return 206, headers, data[first:last + 1]
        return 200, headers, data

    def multipart(self, data, spans, headers):
        """(206, headers, body) of a multipart/byteranges answer holding `spans` of `data`."""
        boundary = "00000000000000000052"
        body = b""
        for first, last in spans:
            part = f"\r\n--{boundary}\r\nContent-Type: application/octet-stream\r\n"
            part += f"Content-Range: bytes {first}-{last}/{len(data)}\r\n\r\n"
            self.part_headers.append((len(body), len(body) + len(part)))
            body += part.encode() + data[first:last + 1]
        closing = f"\r\n--{boundary}--\r\n".encode()
        self.part_headers.append((len(body), len(body) + len(closing)))
        headers["Content-Type"] = f"multipart/byteranges; boundary={boundary}"
        return 206, headers, body + closing

    # --- the routes ---

    def plain(self):
        data = self.load()
        if data is None:
            return self.not_found()
        self.reply(*self.select(data, strong_etag(data)))

    def drop_or_stall(self, stall):
        data = self.load()
        if data is None:
            return self.not_found()
        status, headers, body = self.select(data, strong_etag(data), ranges=self.query.get("ranges") != "0")
        if self.command == "HEAD" or self.server.state.count(self.path) > self.int_param("times", 1):
            return self.reply(status, headers, body)
        self.start(status, headers, len(body))
        self.promised = len(body)
        self.write(body[:max(0, self.int_param("after", 0))])
        if stall:
            self.wfile.flush()
            seconds = min(max(0.0, float(self.query.get("seconds", "5"))), MAX_STALL_SECONDS)
            self.server.state.stopping.wait(seconds)  # wakes early if the server stops
        self.hang_up(reset=not stall and self.query.get("reset") == "1")

    def drop(self):
        self.drop_or_stall(stall=False)

    def stall(self):
        self.drop_or_stall(stall=True)

    def slow(self):
        data = self.load()
        if data is None:
            return self.not_found()
        status, headers, body = self.select(data, strong_etag(data))
        self.start(status, headers, None if status == 304 else len(body))
        if self.command == "HEAD" or status == 304:
            return
        self.promised = len(body)
        chunk = max(1, self.int_param("chunk", 65536))
        try:
            pause = min(max(0.0, float(self.query.get("pause", "0.05"))), 5.0)
        except ValueError:
            pause = 0.05
        for start in range(0, len(body), chunk):
            self.write(body[start:start + chunk])
            self.wfile.flush()
            if start + chunk < len(body) and self.server.state.stopping.wait(pause):
                return self.hang_up()  # the server is stopping

    def flaky(self):
        if self.server.state.count(self.path) > self.int_param("fail", 1):
            return self.plain()
        status = self.int_param("status", 500)
        status = status if 400 <= status <= 599 else 500
        headers = {"Content-Type": "text/plain"}
        if status == 429:
            headers["Retry-After"] = "0"
        self.reply(status, headers, f"injected {status}\n".encode())

    def wrong(self):
        data = self.load()
        if data is None:
            return self.not_found()
        lie = bytearray(data)
        if lie:
            lie[len(lie) // 2] ^= 0xFF
        self.reply(*self.select(bytes(lie), strong_etag(data)))

    def toomany(self):
        data = self.load()
        if data is None:
            return self.not_found()
        self.start(200, {"ETag": strong_etag(data), "Content-Type": "application/octet-stream", "Connection": "close"})
        self.write(data + b"X" * max(0, self.int_param("extra", 1)))
        self.close_connection = True

    def norange(self):
        data = self.load()
        if data is None:
            return self.not_found()
        self.reply(*self.select(data, strong_etag(data), ranges=False))

    def changed(self):
        data = self.load()
        if data is None:
            return self.not_found()
        etag = f'"v{self.server.state.count(self.path)}"'
        self.reply(*self.select(data, etag, need_if_range=True))

    def redirect_to(self, location):
        status = self.int_param("status", 302)
        if status not in REDIRECTS:
            return self.reply(400, {"Content-Type": "text/plain"}, b"status must be 301, 302, 303, 307 or 308\n")
        self.reply(status, {"Location": location, "Content-Type": "text/plain"}, b"redirect\n")

    def redirect(self):
        to = self.query.get("to")
        if to is None:
            return self.reply(400, {"Content-Type": "text/plain"}, b"redirect needs ?to=URL\n")
        self.redirect_to(to)

    def chain(self):
        count, _, file = self.rest.partition("/")
        if not count.isdigit() or not file:
            return self.not_found()
        if int(count) == 0:
            self.rest = file
            return self.plain()
        query = urlsplit(self.path).query
        target = f"/chain/{int(count) - 1}/{file}" if int(count) > 1 else f"/plain/{file}"
        self.redirect_to(f"http://127.0.0.1:{self.server.state.port}{target}" + (f"?{query}" if query else ""))


ROUTES = {
    "plain": Handler.plain, "drop": Handler.drop, "stall": Handler.stall, "slow": Handler.slow, "flaky": Handler.flaky,
    "wrong": Handler.wrong, "toomany": Handler.toomany, "norange": Handler.norange,
    "changed": Handler.changed, "redirect": Handler.redirect, "chain": Handler.chain,
}


class Server(ThreadingHTTPServer):
    daemon_threads = True  # a stalled or idle connection never holds up the exit


def main():
    parser = argparse.ArgumentParser(description="Fault-injecting HTTP/1.1 file server (127.0.0.1 only).")
    parser.add_argument("--root", required=True, help="folder whose files are served")
    parser.add_argument("--lifetime", type=float, default=900.0, help="seconds before exiting on its own")
    args = parser.parse_args()
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM})  # a parent's thread may have blocked it
    if not os.path.isdir(args.root):
        print(f"fault_server: --root {args.root!r} is not a folder", file=sys.stderr)
        return 2
    server = Server(("127.0.0.1", 0), Handler)  # bound and listening on return
    state = State(args.root, server.server_address[1])
    server.state = state
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.1}, daemon=True).start()
    print(f"PORT {state.port}", flush=True)

    def watch_stdin():
        try:
            sys.stdin.buffer.read()  # returns at EOF: the parent closed its end, or died
        except (OSError, ValueError):
            pass
        state.stopping.set()

    threading.Thread(target=watch_stdin, daemon=True).start()
    state.stopping.wait(max(0.0, args.lifetime))
    state.stopping.set()
    server.shutdown()
    server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
