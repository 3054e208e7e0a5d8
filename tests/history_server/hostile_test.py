#!/usr/bin/env python3
"""`planlint check --history-server` against a misbehaving server on 127.0.0.1 (the History Server
client defects a reliability probe found in December 2026): --timeout values (H2), credentials
never printed (S1), server text sanitised (S2), gzip/deflate bombs (S3), --max-input-size and
Content-Length on live fetches (S4), --app as path segments (S6) and application and attempt ids
from the server likewise, the final URL after a redirect,
a base URL with ?query/#fragment and long redirect targets (W7), out-of-range numbers (C1).
Usage: hostile_test.py PLANLINT   (run from the source folder; see tests/history_server_hostile.sh)
"""
import http.server
import json
import os
import resource
import subprocess
import sys
import threading
import time
import zlib

planlint = sys.argv[1]
GOOD = open("corpus/history-server/skewed-join.sql.json", "rb").read()
failures = []
requests = []


def expect(cond, what):
    print(("ok: " if cond else "FAIL: ") + what)
    if not cond:
        failures.append(what)


class H(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def send(self, code, body, headers=()):
        self.send_response(code)
        self.send_header("Content-Length", str(len(body)))
        for k, v in headers:
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(body)

    def bomb(self, wbits, mib, encoding):
        """<mib> MiB of one JSON string, compressed as it is sent (no Content-Length): about 1 MB
        on the wire per GiB. Generated lazily, so a client that hangs up early costs little."""
        self.send_response(200)
        self.send_header("Content-Encoding", encoding)
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True
        co = zlib.compressobj(9, zlib.DEFLATED, wbits)
        self.wfile.write(co.compress(b'[{"id":0,"status":"COMPLETED","description":"'))
        block = b"A" * (1 << 20)
        for _ in range(mib):
            self.wfile.write(co.compress(block))
        self.wfile.write(co.compress(b'"}]') + co.flush())

    def do_GET(self):
        requests.append(self.path)
        parts = self.path.split("/")
        mode = parts[1]
        try:
            if mode == "ok":
                return self.send(200, GOOD)
            if mode == "silent":
                time.sleep(20)
                return
            if mode == "c1":
                return self.send(500, b"\x9b31mCSI \xc2\x9b32m \xe2\x80\xae RLO \xff\xfe \x7f \x1b[2J")
            if mode == "notjson":
                return self.send(200, b"\x9b31m\xe2\x80\xae\xff<html>login</html>")
            if mode == "gzip":
                return self.bomb(31, int(parts[2]), "gzip")
            if mode == "deflate":
                return self.bomb(-15, int(parts[2]), "deflate")
            if mode == "biglen":  # announces 5 GB, sends a little, then waits
                self.send_response(200)
                self.send_header("Content-Length", "5000000000")
                self.end_headers()
                self.wfile.write(b"[" * 1000)
                time.sleep(20)
                return
            if mode == "endless":  # no Content-Length: a body that never ends
                self.send_response(200)
                self.send_header("Connection", "close")
                self.end_headers()
                self.close_connection = True
                block = b'[{"id":0,"status":"COMPLETED","x":[' + b"0," * 32768
                self.wfile.write(block)
                for _ in range(100000):
                    self.wfile.write(b"0," * 32768)
                return
            if mode == "bignum":
                return self.send(200, b'[{"id":0,"status":"COMPLETED","duration":1e400,"planDescription":"== Physical Plan ==\\n* Project (1)\\n"}]')
            if mode == "redirect":  # to localhost, the same path without the prefix
                port = self.server.server_address[1]
                loc = "http://localhost:%d/ok/%s" % (port, "/".join(parts[2:]))
                return self.send(302, b"", [("Location", loc)])
            if mode == "longredirect":
                return self.send(302, b"", [("Location", "/longredirect/" + "x" * 100000)])
            if mode == "apps":  # an application list with a hostile id, name and attempt id
                rest = "/".join(parts[2:]).split("?")[0]
                app = {"id": "x\x1b[2J", "name": "\u202e evil\x9b31m",
                       "attempts": [{"attemptId": "../../etc", "startTimeEpoch": 1, "completed": True}]}
                if rest == "api/v1/applications":
                    return self.send(200, json.dumps([app]).encode())
                if rest.endswith("/sql"):
                    return self.send(404, b"no such app: x")
                return self.send(200, json.dumps(app).encode())
            if mode == "q":  # a proxy that wants ?doAs=
                if "doAs=alice" in self.path and "details=true" in self.path and "#" not in self.path \
                        and self.path.startswith("/q/api/v1/applications/a1/sql?"):
                    return self.send(200, GOOD)
            return self.send(404, b"no such app: " + self.path.encode())
        except (BrokenPipeError, ConnectionResetError):
            pass


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        pass  # planlint hanging up on a bomb or an endless body is the point


server = Server(("127.0.0.1", 0), H)
threading.Thread(target=server.serve_forever, daemon=True).start()
url = "http://127.0.0.1:%d" % server.server_address[1]


def run(*args, timeout=60):
    """planlint check ARGS: (exit code, stdout, stderr, seconds, peak RSS of this run in MB)."""
    import tempfile
    with tempfile.TemporaryFile() as o, tempfile.TemporaryFile() as e:
        t0 = time.monotonic()
        p = subprocess.Popen([planlint, "check", "--no-config", *args], stdout=o, stderr=e)
        timer = threading.Timer(timeout, p.kill)
        timer.start()
        _, status, usage = os.wait4(p.pid, 0)  # this child's own rusage
        timer.cancel()
        p.returncode = os.waitstatus_to_exitcode(status)
        s = time.monotonic() - t0
        o.seek(0)
        e.seek(0)
        rc = 124 if p.returncode == -9 else p.returncode
        return rc, o.read(), e.read(), s, usage.ru_maxrss / 1024


# H2: --timeout 0 / negative / huge disabled the timeout; now refused before any request.
for t in ["0", "-1", "9999999999999", "86401"]:
    rc, out, err, s, _ = run("--history-server", url + "/silent", "--app", "a", "--timeout=" + t, timeout=15)
    expect(rc == 2 and b"1 to 86400" in err + out and s < 5, f"--timeout {t} refused (exit {rc}, {s:.1f} s): {err[:160]!r}")
rc, out, err, s, _ = run("--history-server", url + "/silent", "--app", "a", "--timeout", "2", timeout=15)
expect(rc == 2 and b"within the timeout" in err and s < 8, f"--timeout 2 holds against a silent server ({s:.1f} s)")

# S1: credentials in the URL never printed: errors, every output format's paths.
secret = b"s3cr3tpw"
rc, out, err, _, _ = run("--history-server", "http://alice:s3cr3tpw@127.0.0.1:%d/x" % server.server_address[1], "--app", "a1")
expect(rc == 2 and secret not in out + err and b"***@127.0.0.1" in err, f"404 error without the password: {err[:200]!r}")
for fmt in ["text", "json", "sarif", "junit", "github", "concise"]:
    rc, out, err, _, _ = run("--history-server", "http://alice:s3cr3tpw@127.0.0.1:%d/ok?access_token=tok3n99&doAs=x" % server.server_address[1],
                             "--app", "a1", "--format", fmt, "--exit-zero")
    expect(rc == 0 and out and secret not in out + err and b"tok3n99" not in out + err and b"alice" not in out,
           f"--format {fmt}: no userinfo and no token in the output")
rc, out, err, _, _ = run("--history-server", url + "/echo?token=tok3n99", "--app", "a1")
expect(rc == 2 and b"tok3n99" not in err and b"token=***" in err, f"a token the server echoes is masked: {err[:240]!r}")

# S2: server text through visible(): no raw C1 controls, bidi overrides, DEL, ESC or invalid UTF-8.
for mode in ["c1", "notjson"]:
    rc, out, err, _, _ = run("--history-server", url + "/" + mode, "--app", "a")
    raw = [b for b in (b"\x9b", b"\xe2\x80\xae", b"\xff", b"\x7f", b"\x1b") if b in err]
    expect(rc == 2 and not raw and b"\\u202e" in err, f"{mode}: server text sanitised (raw bytes left: {raw}): {err[:200]!r}")

# S3: decompression bombs (1 GiB of JSON in about 1 MB) stop early with a clear error.
for enc in ["gzip", "deflate"]:
    rc, out, err, s, rss = run("--history-server", url + "/%s/1024" % enc, "--app", "a")
    expect(rc == 2 and b"decompression bomb" in err and rss < 400, f"{enc} bomb refused ({s:.1f} s, peak RSS {rss:.0f} MB): {err[:200]!r}")

# S4: --max-input-size applies to live fetches; a huge Content-Length is refused before download.
# The bound is on what planlint keeps, so it is tight for the plain build (about 20 MB seen); an
# AddressSanitizer build starts at about 200 MB of shadow memory and quarantine, so it gets the
# bombs' bound.
cache = os.path.join(os.path.dirname(os.path.abspath(planlint)), "CMakeCache.txt")
sanitized = os.path.exists(cache) and "PLANLINT_SANITIZE:BOOL=ON" in open(cache, errors="replace").read()
rss_bound = 400 if sanitized else 64
rc, out, err, s, rss = run("--history-server", url + "/endless", "--app", "a", "--max-input-size", "1MB")
expect(rc == 2 and b"larger than the input size limit" in err and rss < rss_bound, f"endless body stops at --max-input-size 1MB ({s:.1f} s, {rss:.0f} MB): {err[:200]!r}")
rc, out, err, s, _ = run("--history-server", url + "/biglen", "--app", "a", timeout=15)
expect(rc == 2 and b"refused before it was read" in err and s < 8, f"Content-Length 5 GB refused up front ({s:.1f} s): {err[:200]!r}")
rc, out, err, _, _ = run("--history-server", url + "/ok", "--app", "a", "--max-input-size", "4KiB")
expect(rc == 2 and b"input size limit" in err, f"an 8 KB answer over --max-input-size 4KiB is refused: {err[:200]!r}")

# S6: --app stays inside /api/v1/applications/.
for app in ["../../../../etc/passwd", "..", ".", "a/../../x", "a//b", "a/1/2"]:
    n = len(requests)
    rc, out, err, _, _ = run("--history-server", url + "/echo", "--app", app)
    expect(rc == 2 and len(requests) == n and b"--app" in err, f"--app {app!r} refused without a request: {err[:160]!r}")
n = len(requests)
rc, out, err, _, _ = run("--history-server", url + "/echo", "--app", "a b?#%.x/1")
expect(rc == 2 and requests[n:] and requests[n].startswith("/echo/api/v1/applications/a%20b%3F%23%25.x/1/sql?"),
       f"--app percent-encoded per segment: {requests[n:]}")

# Names the server gives (no --app: its one application; an application with attempts: its
# latest) are shown through visible() and sent as encoded path segments: an attempt id that would
# climb out of /api/v1/applications/ is refused without a request.
n = len(requests)
rc, out, err, _, _ = run("--history-server", url + "/apps")
raw = [b for b in (b"\x9b", b"\xe2\x80\xae", b"\x1b") if b in err]
expect(rc == 2 and not raw and b"that is no path segment" in err and requests[n:] and not any("etc" in r for r in requests[n:])
       and all(r.startswith("/apps/api/v1/applications") for r in requests[n:]),
       f"a hostile application list: sanitised, no request outside the applications (raw bytes left: {raw}): "
       f"{err[:200]!r} {requests[n:]}")

# W7: findings carry the URL that answered; ?query kept after ours, #fragment dropped; long targets cut.
rc, out, err, _, _ = run("--history-server", url + "/redirect", "--app", "a1", "--format", "json", "--exit-zero")
paths = {f["path"] for f in json.loads(out)["files"]} if rc == 0 else set()
expect(rc == 0 and paths and all(p.startswith("http://localhost:") for p in paths), f"after a redirect, the final URL: {paths}")
rc, out, err, _, _ = run("--history-server", url + "/q/?doAs=alice#frag", "--app", "a1", "--format", "concise", "--exit-zero")
expect(rc == 0 and b"skew-not-handled" in out and b"doAs=alice" in out, f"a base URL with ?query and #fragment: {err[:200]!r} {requests[-1:]}")
rc, out, err, _, _ = run("--history-server", url + "/longredirect", "--app", "a1")
expect(rc == 2 and b"... (1000" in err and len(err) < 3000, f"a 100 KB redirect target is shortened ({len(err)} bytes on stderr)")

# C1 over the wire: an out-of-range number is a parse error, exit 2, no abort.
rc, out, err, _, _ = run("--history-server", url + "/bignum", "--app", "a")
expect(rc == 2 and b"number out of range" in out + err, f"1e400 in a live answer (exit {rc}): {(out + err)[:200]!r}")

server.shutdown()
sys.exit(1 if failures else 0)
