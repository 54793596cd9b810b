#!/usr/bin/env python3
"""Writes a Maildir of N generated messages (default 10,000) for `make bench-refresh`.
Usage: scripts/bench/gen-maildir.py DIR [N [SENT]]
Messages cycle through the five categories and several MIME shapes (plain, quoted-printable,
multipart/alternative, HTML-only, base64 attachment), dated over the last 25 days.
SENT (default 0) messages of the owner go to the Maildir++ folder DIR/.Sent (read as sent
mail by digest-refresh): every other one answers a Need-Action message (In-Reply-To), the
rest start conversations of their own, nobody answers."""
import base64
import os
import random
import sys
import time

TEMPLATES = [
    ("Need-Action", "Person {i} <person{i}@example.com>", "Can you review document {i} by Friday?",
     {}, "Hi,\n\nCould you review document {i} and send me your comments before Friday noon?\n\nThanks"),
    ("FYI", "Orders <orders@shop{m}.example.net>", "Your order #{i} has shipped",
     {"Auto-Submitted": "auto-generated"}, "Your order #{i} has shipped and will arrive on Thursday."),
    ("Newsletter", "Weekly {m} <editor@news{m}.example.org>", "Weekly #{i}: databases, compilers and caching",
     {"List-Id": "<weekly.news{m}.example.org>", "List-Unsubscribe": "<https://news{m}.example.org/u>", "Precedence": "bulk"},
     "In this issue: articles on databases, compilers and caching, and a reading list."),
    ("Promotional", "Store {m} <deals@store{m}.example.com>", "Flash sale: {pct}% off everything",
     {"List-Unsubscribe": "<https://store{m}.example.com/u>", "X-CampaignID": "c{i}"},
     "<html><body><p>Save <b>{pct}% off</b> everything this weekend. Shop now!</p></body></html>"),
    ("Social", "LinkedIn <messages-noreply@linkedin.com>", "Person {i} wants to connect",
     {}, "Person {i} wants to connect with you. Accept the invitation."),
]


def main():
    root = sys.argv[1]
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 10000
    for sub in ("cur", "new", "tmp"):
        os.makedirs(os.path.join(root, sub), exist_ok=True)
    rng = random.Random(42)
    now = int(time.time())
    for i in range(n):
        cat, frm, subject, extra, body = TEMPLATES[i % 5]
        m = i % 37
        fill = dict(i=i, m=m, pct=10 + i % 60)
        ts = now - rng.randint(0, 25 * 86400)
        date = time.strftime("%a, %d %b %Y %H:%M:%S +0000", time.gmtime(ts))
        headers = [f"From: {frm.format(**fill)}", "To: dana@example.com", f"Subject: {subject.format(**fill)}",
                   f"Date: {date}", f"Message-ID: <bench-{i}@example.com>", "MIME-Version: 1.0"]
        headers += [f"{k}: {v.format(**fill)}" for k, v in extra.items()]
        text = body.format(**fill)
        shape = i % 4
        if text.startswith("<html>"):
            headers.append("Content-Type: text/html; charset=utf-8")
            payload = text
        elif shape == 1:
            headers += ["Content-Type: text/plain; charset=iso-8859-1", "Content-Transfer-Encoding: quoted-printable"]
            payload = text.replace("=", "=3D") + "\nCaf=E9 cr=E8me."
        elif shape == 2:
            headers.append('Content-Type: multipart/alternative; boundary="alt"')
            payload = f"--alt\nContent-Type: text/plain; charset=utf-8\n\n{text}\n--alt\nContent-Type: text/html; charset=utf-8\n\n<p>{text}</p>\n--alt--"
        elif shape == 3:
            headers.append('Content-Type: multipart/mixed; boundary="mix"')
            att = base64.encodebytes(os.urandom(3000)).decode()
            payload = (f"--mix\nContent-Type: text/plain; charset=utf-8\n\n{text}\n--mix\n"
                       f"Content-Type: application/pdf; name=\"a.pdf\"\nContent-Transfer-Encoding: base64\n"
                       f"Content-Disposition: attachment; filename=\"a.pdf\"\n\n{att}--mix--")
        else:
            headers.append("Content-Type: text/plain; charset=utf-8")
            payload = text
        data = ("\r\n".join(headers) + "\r\n\r\n" + payload.replace("\n", "\r\n") + "\r\n").encode("utf-8")
        path = os.path.join(root, "cur", f"{ts}.M{i}P1.bench.example.com:2,S")
        with open(path, "wb") as f:
            f.write(data)
        os.utime(path, (ts, ts))
    sent = int(sys.argv[3]) if len(sys.argv) > 3 else 0
    write_sent(os.path.join(root, ".Sent"), n, sent, rng, now)
    print(f"wrote {n} messages to {root}" + (f" and {sent} sent messages" if sent else ""))


def write_sent(root, n, sent, rng, now):
    if not sent:
        return
    for sub in ("cur", "new", "tmp"):
        os.makedirs(os.path.join(root, sub), exist_ok=True)
    for j in range(sent):
        ts = now - rng.randint(0, 25 * 86400)
        date = time.strftime("%a, %d %b %Y %H:%M:%S +0000", time.gmtime(ts))
        headers = ["From: Dana <dana@example.com>", f"Date: {date}",
                   f"Message-ID: <sent-{j}@example.com>", "MIME-Version: 1.0",
                   "Content-Type: text/plain; charset=utf-8"]
        if j % 2 == 0:
            i = (j * 5) % max(n, 1)  # a Need-Action message (TEMPLATES[0])
            headers += [f"To: person{i}@example.com", f"Subject: Re: Can you review document {i} by Friday?",
                        f"In-Reply-To: <bench-{i}@example.com>", f"References: <bench-{i}@example.com>"]
            text = f"Done, comments on document {i} attached."
        else:
            headers += [f"To: client{j}@example.org", f"Subject: Question {j} about the contract"]
            text = f"Could you confirm point {j} of the contract?"
        data = ("\r\n".join(headers) + "\r\n\r\n" + text + "\r\n").encode("utf-8")
        path = os.path.join(root, "cur", f"{ts}.M{j}P2.bench.example.com:2,S")
        with open(path, "wb") as f:
            f.write(data)
        os.utime(path, (ts, ts))


if __name__ == "__main__":
    main()
