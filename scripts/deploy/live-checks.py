#!/usr/bin/env python3
"""The live checks through the reverse proxy (stdlib only), run by scripts/deploy/live-test.sh.

Usage: scripts/deploy/live-checks.py PROXY_PORT INGREDIENT_API_LOG DIGEST_WEB_LOG PROXY_ACCESS_LOG

Talks to nginx on 127.0.0.1:PROXY_PORT with the Host names of deploy/proxy/nginx.conf.template
and checks: the proxy's own /nginx-health; an unknown Host refused with 421; health of both
services; an /analyze call answered with an AnalysisResponse; a 10 MB image in base64 on /ocr
passed through to the service (its OcrResponse, not nginx's 413 page) while a body over 16m is
refused by nginx; a digest refresh answered with a RefreshResult; forwarded headers seen by the
services (X-Request-Id echoed, X-Forwarded-For/Proto/Host in the services' JSON debug log, the same
id in nginx's access log). The services must log JSON with RUST_LOG including
service_kit::request_id=debug. LIVE_PEER_ADDR is the address nginx sees the checks come from
(127.0.0.1; behind docker's port publishing, the container network's gateway). Prints one line
per check; exits 1 when any fails.
"""

import base64
import gzip
import http.client
import json
import os
import re
import sys
import time

PORT = int(sys.argv[1]) if len(sys.argv) > 1 else 0
API, DIGEST = "api.localhost", "digest.localhost"
PEER = os.environ.get("LIVE_PEER_ADDR", "127.0.0.1")
results = []


def request(host, method, path, body=None, headers=None, timeout=180):
    """(status, headers dict with lower-case names, body bytes)."""
    conn = http.client.HTTPConnection("127.0.0.1", PORT, timeout=timeout)
    all_headers = {"Host": host, **(headers or {})}
    if body is not None:
        all_headers.setdefault("Content-Type", "application/json")
    try:
        conn.request(method, path, body=body, headers=all_headers)
        res = conn.getresponse()
        headers = {}
        for name, value in res.getheaders():
            # A header sent twice is one list (RFC 9110, 5.3): nginx adds its own Vary.
            name = name.lower()
            headers[name] = f"{headers[name]}, {value}" if name in headers else value
        return res.status, headers, res.read()
    finally:
        conn.close()


def check(name):
    """Decorator: runs the check now and records ok / not ok with the failure's text."""

    def run(fn):
        started = time.monotonic()
        try:
            fn()
            results.append((name, None))
            print(f"ok - {name} ({time.monotonic() - started:.1f}s)", flush=True)
        except Exception as e:  # noqa: BLE001 - every failure becomes a reported line
            results.append((name, e))
            print(f"not ok - {name}: {type(e).__name__}: {e}", flush=True)
        return fn

    return run


def expect(cond, message):
    if not cond:
        raise AssertionError(message)


def json_body(status, headers, body):
    expect(
        headers.get("content-type", "").startswith("application/json"),
        f"HTTP {status} with content-type {headers.get('content-type')!r}: {body[:200]!r}",
    )
    return json.loads(body)


def log_lines(path):
    """The JSON objects of a log file (other lines skipped)."""
    out = []
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            line = line.strip()
            if line.startswith("{"):
                try:
                    out.append(json.loads(line))
                except ValueError:
                    pass
    return out


def find_in_log(path, key, value, attempts=50):
    """The first JSON log record whose `key` (anywhere at top level) equals `value`."""
    for _ in range(attempts):
        for record in log_lines(path):
            if record.get(key) == value:
                return record
        time.sleep(0.1)
    raise AssertionError(f"no {key}={value!r} in {path}")


def main():
    api_log, digest_log, access_log = sys.argv[2], sys.argv[3], sys.argv[4]

    @check("proxy health endpoint /nginx-health answers 200")
    def _():
        status, _, body = request("127.0.0.1", "GET", "/nginx-health")
        expect(status == 200 and body.strip() == b"ok", f"HTTP {status}: {body[:100]!r}")

    @check("unknown Host is refused with 421 and never reaches a service")
    def _():
        for host in ("evil.example.com", "localhost"):
            status, headers, body = request(host, "GET", "/health")
            expect(status == 421, f"Host {host}: HTTP {status}: {body[:100]!r}")
            expect("x-request-id" not in headers, "a service answered")

    @check("ingredient-api health through the proxy (api.localhost)")
    def _():
        status, headers, body = request(API, "GET", "/health")
        expect(status == 200, f"HTTP {status}")
        expect(json_body(status, headers, body) == {"status": "healthy"}, body)
        status, headers, body = request(API, "GET", "/")
        expect(status == 200 and json_body(status, headers, body)["status"] == "ok", body)

    @check("digest-web health through the proxy (digest.localhost)")
    def _():
        status, headers, body = request(DIGEST, "GET", "/health")
        expect(status == 200, f"HTTP {status}: {body[:200]!r}")
        json_body(status, headers, body)

    @check("POST /analyze answers an AnalysisResponse through the proxy")
    def _():
        payload = {
            "product_name": "Deploy Check Cream",
            "ingredients": "Aqua, Glycerin, Niacinamide",
            "allergies": ["glycerin"],
        }
        status, headers, body = request(API, "POST", "/analyze", json.dumps(payload))
        doc = json_body(status, headers, body)
        expect(status == 200, f"HTTP {status}: {doc}")
        expect(doc.get("success") is True, doc)
        expect(doc.get("product_name") == "Deploy Check Cream", doc)
        expect(len(doc.get("ingredients", [])) == 3, f"ingredients: {doc.get('ingredients')}")

    @check("POST /analyze is gzipped for clients that accept it, and only for them")
    def _():
        names = ", ".join(["Aqua", "Glycerin", "Parfum", "Linalool", "Methylparaben"] * 8)
        payload = json.dumps({"ingredients": names, "expertise": "expert"})
        status, headers, body = request(
            API, "POST", "/analyze", payload, {"Accept-Encoding": "gzip"}
        )
        expect(status == 200, f"HTTP {status}")
        expect(headers.get("content-encoding") == "gzip", f"headers: {headers}")
        expect("accept-encoding" in headers.get("vary", "").lower(), f"vary: {headers.get('vary')}")
        plain = gzip.decompress(body)
        expect(len(body) * 3 < len(plain), f"{len(body)} bytes gzipped for {len(plain)}")
        doc = json.loads(plain)
        expect(doc.get("success") is True and len(doc["ingredients"]) == 40, doc.get("error"))
        status, headers, body = request(API, "POST", "/analyze", payload)
        expect("content-encoding" not in headers, f"unasked: {headers.get('content-encoding')}")
        unzipped = json.loads(body)
        for answer in (doc, unzipped):
            answer.pop("execution_time")
        expect(unzipped == doc, "the same answer with and without compression")
        status, headers, _ = request(DIGEST, "GET", "/health", None, {"Accept-Encoding": "gzip"})
        expect("content-encoding" not in headers, "digest-web must stay uncompressed")

    @check("a 10 MB image in base64 on /ocr reaches the service (its OcrResponse, not nginx's 413)")
    def _():
        image = os.urandom(10 * 1000 * 1000)
        body = json.dumps({"image": base64.b64encode(image).decode()})
        expect(len(body) > 13_000_000, len(body))
        status, headers, answer = request(API, "POST", "/ocr", body)
        expect(status not in (413, 502, 504), f"proxy answered HTTP {status}: {answer[:200]!r}")
        expect("x-request-id" in headers, "no x-request-id: not the service's answer")
        doc = json_body(status, headers, answer)
        expect(isinstance(doc.get("success"), bool) and "text" in doc and "error" in doc, doc)

    @check("a body over 16m on /ocr is refused by the proxy with 413")
    def _():
        body = b'{"image": "' + b"A" * (17 * 1024 * 1024) + b'"}'
        try:
            status, headers, _ = request(API, "POST", "/ocr", body)
        except (ConnectionResetError, BrokenPipeError):
            return  # nginx may close while the client still sends: refused all the same
        expect(status == 413, f"HTTP {status}")
        expect("x-request-id" not in headers, "the service answered: nginx did not limit")

    @check("POST /api/refresh answers a RefreshResult through the proxy")
    def _():
        status, headers, body = request(DIGEST, "POST", "/api/refresh", timeout=170)
        doc = json_body(status, headers, body)
        expect(status == 200, f"HTTP {status}: {doc}")
        expect(doc.get("status") == "success", doc)
        expect(isinstance(doc.get("message"), str), doc)
        expect(isinstance(doc.get("execution_time"), (int, float)), doc)
        status, headers, body = request(DIGEST, "GET", "/api/digest")
        doc = json_body(status, headers, body)
        expect(status == 200 and "categories" in doc and "generated_at" in doc, doc)

    @check("forwarded headers reach both services (X-Request-Id, X-Forwarded-For/Proto/Host)")
    def _():
        for host, log in ((API, api_log), (DIGEST, digest_log)):
            nonce = f"deploy-check-{host.split('.')[0]}-{os.getpid()}-{time.time_ns()}"
            status, headers, _ = request(
                host, "GET", "/health",
                headers={"X-Request-Id": nonce, "X-Forwarded-For": "203.0.113.7"},
            )
            expect(status == 200, f"{host}: HTTP {status}")
            expect(headers.get("x-request-id") == nonce, f"{host}: echoed {headers.get('x-request-id')!r}")
            record = find_in_log(log, "forwarded_request_id", nonce)
            expect(record.get("x_forwarded_for") == f"203.0.113.7, {PEER}", record)
            expect(record.get("x_forwarded_proto") == "http", record)
            expect(record.get("x_forwarded_host") == host, record)
            # actix derives the client and host from them (tracing-actix-web's span fields).
            span = record.get("span", {})
            expect(span.get("http.client_ip") == "203.0.113.7", span)
            expect(span.get("http.host") == host, span)
            find_in_log(access_log, "request_id", nonce)
        # Without a client id, nginx makes one (32 hex digits) and the service echoes it.
        status, headers, _ = request(DIGEST, "GET", "/health")
        rid = headers.get("x-request-id", "")
        expect(re.fullmatch(r"[0-9a-f]{32}", rid), f"not nginx's $request_id: {rid!r}")
        record = find_in_log(access_log, "request_id", rid)
        expect(record.get("host") == DIGEST and record.get("status") == 200, record)

    failed = [name for name, err in results if err]
    print(f"{len(results) - len(failed)}/{len(results)} live checks passed", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    sys.exit(main())
