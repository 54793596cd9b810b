#!/usr/bin/env python3
"""Scores /ocr on the shared real label photos (../shared/data/real-photos), split in two fixed
halves by the CRC-32 of the file name: "tune" (CRC-32 even, the half fixes were developed on) and
"check" (odd, never looked at while tuning). Prints every photo (half, F1, items, seconds) and each
half's fuzzy F1, median and slowest seconds, photos over the 8 s budget, empty answers; with --pid
(the server's process id) also the CPU seconds each photo cost the server and its Tesseract
children (wall time on a shared machine says more about the neighbours than about /ocr).

Usage: ocr-real.py URL [--pid PID] [--save FILE] [--only REGEX] [--half tune|check] [--timeout S]
Scoring is the set's own score.py (fuzzy item match, similarity >= 0.85, the printed list).
"""
import argparse, json, os, re, statistics, subprocess, sys, tempfile, zlib

HERE = os.path.dirname(os.path.abspath(__file__))
PHOTOS = os.path.normpath(os.path.join(HERE, "../../../shared/data/real-photos"))
BUDGET_S = 8.0


def half(file):
    """The fixed half of a photo: "tune" or "check"."""
    return "tune" if zlib.crc32(file.encode()) % 2 == 0 else "check"


def summary(rows):
    truth = sum(r["n_truth"] for r in rows)
    pred = sum(r["n_pred"] for r in rows)
    fuzzy = sum(r["fuzzy"] for r in rows)
    recall = fuzzy / truth if truth else 0.0
    precision = fuzzy / pred if pred else 0.0
    f1 = 2 * recall * precision / (recall + precision) if recall + precision else 0.0
    seconds = [r["seconds"] for r in rows]
    cpu = [r["cpu"] for r in rows if r.get("cpu") is not None]
    cpu_part = (f" cpu_median_s={statistics.median(cpu):.2f} cpu_max_s={max(cpu):.2f}"
                if cpu else "")
    rss = [r["rss_mb"] for r in rows if r.get("rss_mb") is not None]
    if rss:
        cpu_part += f" rss_median_mb={statistics.median(rss):.0f} rss_max_mb={max(rss):.0f}"
    return (f"photos={len(rows)} fuzzy_f1={f1:.3f} recall={recall:.3f} precision={precision:.3f} "
            f"median_s={statistics.median(seconds):.2f} max_s={max(seconds):.2f} "
            f"over_{BUDGET_S:.0f}s={sum(s > BUDGET_S for s in seconds)} "
            f"empty={sum(r['n_pred'] == 0 for r in rows)}{cpu_part}")


def cpu_ticks(pid):
    """CPU clock ticks of a process and its reaped children (utime, stime, cutime, cstime)."""
    with open(f"/proc/{pid}/stat", encoding="ascii") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return sum(int(v) for v in fields[11:15])


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("url")
    ap.add_argument("--save", help="write the per-photo results (jsonl) here")
    ap.add_argument("--only", help="a regex on file names")
    ap.add_argument("--half", choices=["tune", "check"], help="read one half only")
    ap.add_argument("--pid", type=int, help="the server's process id: CPU seconds per photo")
    ap.add_argument("--timeout", type=int, default=120,
                    help="seconds the client waits for one answer (default 120; more on a busy machine)")
    args = ap.parse_args()
    if not os.path.isdir(PHOTOS):
        print("skipped: ../shared/data not found")
        return
    only = args.only
    if args.half:
        files = sorted(f for f in os.listdir(PHOTOS) if f.endswith(".jpg") and half(f) == args.half)
        only = "^(" + "|".join(re.escape(f) for f in files) + ")$"
    with tempfile.TemporaryDirectory() as tmp:
        saved = args.save or os.path.join(tmp, "results.jsonl")
        post = (f"curl -s -X POST {args.url}/ocr -H 'Content-Type: application/json' "
                "--data-binary @{json}")
        cpu_log = os.path.join(tmp, "cpu.txt")
        if args.pid:
            # Ticks before and after each request, written beside the answer.
            # The peak resident memory (VmHWM) is reset before each request (clear_refs 5), so
            # each photo's peak is its own over what the server already held.
            tick = f"awk '{{print $14+$15+$16+$17}}' /proc/{args.pid}/stat"
            hwm = f"awk '/^VmHWM/{{print $2}}' /proc/{args.pid}/status"
            post = (f"echo 5 > /proc/{args.pid}/clear_refs 2>/dev/null; a=$({tick}); {post}; "
                    f"b=$({tick}); echo {{image}} $((b - a)) $({hwm}) >> {cpu_log}")
        cmd = [sys.executable, os.path.join(PHOTOS, "score.py"), "--dir", PHOTOS, "--jobs", "1",
               "--timeout", str(args.timeout), "--json-key", "original_text", "--save", saved,
               "--cmd", post]
        if only:
            cmd += ["--only", only]
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        rows = [json.loads(l) for l in open(saved, encoding="utf-8") if l.strip()]
        ticks = os.sysconf("SC_CLK_TCK")
        cpu, rss = {}, {}
        if os.path.exists(cpu_log):
            for line in open(cpu_log, encoding="utf-8"):
                path, spent, hwm_kb = line.rsplit(" ", 2)
                cpu[os.path.basename(path)] = int(spent) / ticks
                if hwm_kb.strip().isdigit():
                    rss[os.path.basename(path)] = int(hwm_kb) / 1024
        for r in rows:
            r["cpu"] = cpu.get(r["file"])
            r["rss_mb"] = rss.get(r["file"])
        if args.save and cpu:
            # The saved rows with their CPU seconds (make bench-ocr reads them).
            with open(args.save, "w", encoding="utf-8") as f:
                for r in rows:
                    f.write(json.dumps(r, ensure_ascii=False) + "\n")
    for r in sorted(rows, key=lambda r: (half(r["file"]), r["file"])):
        f1 = 2 * r["fuzzy"] / (r["n_pred"] + r["n_truth"]) if r["n_pred"] + r["n_truth"] else 0.0
        cpu = f" cpu {r['cpu']:5.2f}s" if r.get("cpu") is not None else ""
        if r.get("rss_mb") is not None:
            cpu += f" rss {r['rss_mb']:4.0f}MB"
        print(f"{half(r['file']):<6} {r['file']:<28} f1={f1:.2f} truth={r['n_truth']:>2} "
              f"pred={r['n_pred']:>2} fuzzy={r['fuzzy']:>2} {r['seconds']:6.2f}s{cpu}")
    for name in ("tune", "check"):
        part = [r for r in rows if half(r["file"]) == name]
        if part:
            print(f"{name.upper():<8}{summary(part)}")
    print(f"{'ALL':<8}{summary(rows)}")


if __name__ == "__main__":
    main()
