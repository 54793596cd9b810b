#!/usr/bin/env python3
"""The reference pipeline of `make bench-ocr`: RapidOCR's own Python pipeline (the `rapidocr`
wheel, the same PP-OCRv6 small models /ocr loads, ONNX Runtime with one thread) on the shared
real photos, with a plain list extraction (the text after the first header line of the
nine languages, up to the first full stop that ends a line, split at commas outside brackets).
Prints one Markdown table: with --ours FILE (what `scripts/test/ocr-real.py --save FILE
--pid PID` wrote: /ocr's answers on the same photos with the CPU seconds each cost the server)
a first row for /ocr, then one row per RapidOCR detector size: photos, fuzzy F1 on the tune
half, the check half and all (the set's score.py matching; halves by the CRC-32 of the file
name, as `make ocr-real`), median and p95 CPU seconds per photo, images per second per core.

Run by scripts/bench/ocr.sh with .tmp/venv's Python (rapidocr and onnxruntime from PyPI, for the
bench only). Usage: ocr-rapidocr.py [--side 1280,736:min] [--ours FILE] [--only REGEX]
"""
import argparse, json, os, re, statistics, sys, time, zlib

HERE = os.path.dirname(os.path.abspath(__file__))
PHOTOS = os.path.normpath(os.path.join(HERE, "../../../shared/data/real-photos"))
HEADERS = re.compile(
    r"(ingredients|ingrédients|ingredientes|ingredienti|zutaten|inhaltsstoffe|composition|"
    r"composizione|zusammensetzung|成分|原材料|配料|성분)\s*[:：]?", re.IGNORECASE)


def extract(text):
    """The first list printed: after the first header, to a full stop ending a line."""
    m = HEADERS.search(text)
    if not m:
        return ""
    rest = text[m.end():]
    out = []
    for line in rest.splitlines():
        out.append(line)
        if line.rstrip().endswith("."):
            break
    return " ".join(out)


def half(file):
    """The fixed half of a photo, as scripts/test/ocr-real.py: "tune" or "check"."""
    return "tune" if zlib.crc32(file.encode()) % 2 == 0 else "check"


def f1(rows):
    """Fuzzy item F1 over rows of (file, matched, predicted, truth)."""
    fuzzy = sum(r[1] for r in rows)
    pred = sum(r[2] for r in rows)
    truth = sum(r[3] for r in rows)
    recall, precision = fuzzy / max(truth, 1), fuzzy / max(pred, 1)
    return 2 * recall * precision / (recall + precision) if recall + precision else 0.0


def row(name, scored, cpu):
    """One Markdown row: F1 per half and overall, CPU median and p95, images/s per core."""
    cpu = sorted(cpu)
    p95 = cpu[min(len(cpu) - 1, int(0.95 * len(cpu)))]
    halves = [f1([r for r in scored if half(r[0]) == h]) for h in ("tune", "check")]
    return (f"| {name} | {len(scored)} | {halves[0]:.3f} | {halves[1]:.3f} | {f1(scored):.3f} | "
            f"{statistics.median(cpu):.2f} | {p95:.2f} | {len(cpu) / max(sum(cpu), 1e-9):.2f} |")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--side", default="1280,736:min",
                    help="detector sizes: N (longest side, as /ocr) or N:min (RapidOCR's rule)")
    ap.add_argument("--only", help="a regex on file names")
    ap.add_argument("--ours", help="ocr-real.py's saved results (with CPU seconds) for /ocr's row")
    args = ap.parse_args()
    if not os.path.isdir(PHOTOS):
        print("skipped: ../shared/data not found")
        return
    sys.path.insert(0, PHOTOS)
    import score  # the set's own matching
    # "N": the detector's input N px on its longest side (as /ocr's); "N:min": RapidOCR's own
    # default rule, the shortest side scaled up to N px (a 720x1280 frame at 1280:min is
    # detected at 1280x2272).
    sides = [(int(s.split(":")[0]), "min" if s.endswith(":min") else "max")
             for s in args.side.split(",") if s.strip()]
    if sides:
        from rapidocr import RapidOCR

    rows = [json.loads(l) for l in open(os.path.join(PHOTOS, "truth.jsonl"), encoding="utf-8") if l.strip()]
    if args.only:
        rows = [r for r in rows if re.search(args.only, r["file"])]
    print("| pipeline | photos | F1 tune | F1 check | F1 all | CPU median s | CPU p95 s "
          "| images/s per core |")
    print("|---|---|---|---|---|---|---|---|")
    if args.ours:
        ours = [json.loads(l) for l in open(args.ours, encoding="utf-8") if l.strip()]
        ours = [r for r in ours if not args.only or re.search(args.only, r["file"])]
        print(row("/ocr (ingredient-api, release, one core)",
                  [(r["file"], r["fuzzy"], r["n_pred"], r["n_truth"]) for r in ours],
                  [r["cpu"] or 0.0 for r in ours]), flush=True)
    for side, rule in sides:
        engine = RapidOCR(params={"Global.log_level": "critical", "Det.limit_side_len": side,
                                  "Det.limit_type": rule,
                                  "EngineConfig.onnxruntime.intra_op_num_threads": 1,
                                  "EngineConfig.onnxruntime.inter_op_num_threads": 1})
        engine(os.path.join(PHOTOS, rows[0]["file"]))  # warm-up, not counted
        cpu, scored = [], []
        for r in rows:
            started = time.process_time()
            result = engine(os.path.join(PHOTOS, r["file"]))
            text = "\n".join(result.txts or []) if result is not None else ""
            list_text = extract(text)
            cpu.append(time.process_time() - started)
            pred = score.split_items(list_text) if list_text else []
            _, fz = score.match(pred, r["ingredients"], 0.85)
            scored.append((r["file"], fz, len(pred), len(r["ingredients"])))
        what = (f"longest side {side} px (as /ocr)" if rule == "max"
                else f"shortest side scaled up to {side} px (RapidOCR's rule)")
        print(row(f"RapidOCR Python pipeline, detector {what}, header-and-commas", scored, cpu),
              flush=True)


if __name__ == "__main__":
    main()
