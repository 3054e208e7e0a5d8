#!/usr/bin/env python3
"""A stand-in Spark History Server for tests, on 127.0.0.1 only.

serve.py ROOT PORTFILE [CERT KEY]
ROOT/<app>/list.json and ROOT/<app>/<id>.json are the answers of
/api/v1/applications/<app>/sql and /api/v1/applications/<app>/sql/<id> (any query string).
Path prefixes that misbehave, for the error tests:
  /redirect/...  302 to the same path without the prefix     /loop/...   302 to itself
  /slow/...      answers after 5 s                           /html/...   a login page (200)
  /empty/...     []                                          /broken/... a cut JSON answer
  /gone/...      500 with a Java stack trace line
  /stop/...      answers two requests, then closes the third connection unanswered and exits (a
                 server that stops half-way through a fetch of several applications)
Unknown apps and executions give Spark's 404 texts. The chosen port is written to PORTFILE.
/api/v1/applications lists the apps of ROOT (ApplicationInfo), /api/v1/applications/<app> one.
An app folder whose subfolders hold list.json is an application with those attempts, as Spark
serves one: /applications/<app>/<attempt>/sql[/<id>] answer, /applications/<app>/sql is 404
("no such app"), the attempt with the largest id is the latest.
"""
import http.server
import json
import os
import ssl
import sys
import time
import urllib.parse

ROOT = sys.argv[1]


class Handler(http.server.BaseHTTPRequestHandler):
    stop_count = 0

    def log_message(self, *args):
        pass

    def send(self, code, body, ctype="application/json", headers=()):
        data = body.encode() if isinstance(body, str) else body
        self.send_response(code)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(data)))
        for k, v in headers:
            self.send_header(k, v)
        self.end_headers()
        try:
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            pass

    def do_GET(self):
        url = urllib.parse.urlsplit(self.path)
        path = url.path
        for prefix in ("/redirect", "/loop", "/slow", "/html", "/empty", "/broken", "/gone", "/stop"):
            if path.startswith(prefix + "/"):
                if prefix == "/stop":
                    Handler.stop_count += 1
                    if Handler.stop_count > 2:
                        self.wfile.flush()
                        os._exit(0)  # the connection closes unanswered, the port with it
                    path = path[len(prefix):]
                    break
                rest = path[len(prefix):] + ("?" + url.query if url.query else "")
                if prefix == "/redirect":
                    return self.send(302, "", "text/plain", [("Location", rest)])
                if prefix == "/loop":
                    return self.send(302, "", "text/plain", [("Location", self.path)])
                if prefix == "/slow":
                    time.sleep(5)
                    path = path[len(prefix):]
                    break
                if prefix == "/html":
                    return self.send(200, "<!DOCTYPE html><html><body>Sign in</body></html>", "text/html")
                if prefix == "/empty":
                    return self.send(200, "[ ]")
                if prefix == "/broken":
                    return self.send(200, '[ {\n  "id" : 0,\n  "status" : "COMPLETED",\n  "planDescription" : "== Physical')
                if prefix == "/gone":
                    return self.send(500, "java.lang.NullPointerException\n\tat org.apache.spark...", "text/plain")
        parts = path.strip("/").split("/")
        if parts == ["api", "v1", "applications"]:
            return self.send(200, json.dumps([info(a) for a in sorted(os.listdir(ROOT)) if not a.startswith(".")]))
        # api v1 applications <app> [attempt] sql [id]
        if len(parts) == 4 and parts[:3] == ["api", "v1", "applications"]:
            if not os.path.isdir(os.path.join(ROOT, parts[3])) or parts[3].startswith("."):
                return self.send(404, "unknown app: " + parts[3], "text/plain")
            return self.send(200, json.dumps(info(parts[3])))
        if len(parts) < 5 or parts[:3] != ["api", "v1", "applications"]:
            return self.send(404, "not found: " + path, "text/plain")
        app = parts[3]
        rest = parts[4:]
        appdir = os.path.join(ROOT, app)
        if not os.path.isdir(appdir) or "/" in app or app.startswith("."):
            return self.send(404, "no such app: " + app, "text/plain")
        tries = attempts(app)
        if tries and rest[0] in tries:
            appdir = os.path.join(appdir, rest[0])
            rest = rest[1:]
        elif tries or (rest and rest[0] != "sql"):
            return self.send(404, "no such app: " + app + ("/" + rest[0] if rest and rest[0] != "sql" else ""), "text/plain")
        if rest == ["sql"]:
            with open(os.path.join(appdir, "list.json"), encoding="utf-8") as f:
                return self.send(200, f.read())
        if len(rest) == 2 and rest[0] == "sql" and rest[1].isdigit():
            p = os.path.join(appdir, rest[1] + ".json")
            if not os.path.exists(p):
                return self.send(404, "unknown query execution id: " + rest[1], "text/plain")
            with open(p, encoding="utf-8") as f:
                return self.send(200, f.read())
        return self.send(404, "not found: " + path, "text/plain")


def attempts(app):
    d = os.path.join(ROOT, app)
    return sorted((a for a in os.listdir(d) if os.path.isfile(os.path.join(d, a, "list.json"))), reverse=True)


def info(app):
    tries = attempts(app)
    return {"id": app, "name": app, "attempts": [
        {"attemptId": a, "startTimeEpoch": 1700000000000 + int(a) if a.isdigit() else 0, "completed": True}
        for a in tries] or [{"startTimeEpoch": 1700000000000, "completed": True}]}


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True


srv = Server(("127.0.0.1", 0), Handler)
if len(sys.argv) > 4:
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.load_cert_chain(sys.argv[3], sys.argv[4])
    srv.socket = ctx.wrap_socket(srv.socket, server_side=True)
with open(sys.argv[2] + ".tmp", "w") as f:
    f.write(str(srv.server_address[1]))
os.replace(sys.argv[2] + ".tmp", sys.argv[2])
srv.serve_forever()
