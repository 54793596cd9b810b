#!/usr/bin/env python3
# A misbehaving Chat Completions endpoint for fault runs: answers
# 30 % of requests with HTTP 500 and the rest with completions that hold no usable JSON or
# JSON of the wrong shape. Loopback only; stopped by PID.
#   scripts/test/llm-garbage-server.py PORT
import http.server
import json
import random
import sys

answers = ["not json at all", "{\"ingredients\": [{\"name\": 1}]}", "{\"summary\": 7}",
           "```json\n{\"ingredients\": \"x\"}\n```", "{\"summary\": \"\"}"]
class H(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        self.rfile.read(int(self.headers.get('content-length', 0)))
        if random.random() < 0.3:
            self.send_response(500); self.end_headers(); self.wfile.write(b"boom"); return
        body = json.dumps({"model": "m", "choices": [{"message": {"role": "assistant", "content": random.choice(answers)}}]}).encode()
        self.send_response(200); self.send_header('content-type', 'application/json'); self.send_header('content-length', str(len(body))); self.end_headers(); self.wfile.write(body)
    def log_message(self, *a): pass
http.server.ThreadingHTTPServer(('127.0.0.1', int(sys.argv[1])), H).serve_forever()
