#!/usr/bin/env python3
"""The reference pipeline of `make bench-ocr`: RapidOCR's own Python pipeline (the `rapidocr`
wheel, the same PP-OCRv6 small models /ocr loads, ONNX Runtime with one thread) on the shared
real photos, with a plain list extraction (the text after the first header line of the
nine languages, up to the first full stop that ends a line, split at commas outside brackets).
Prints one Markdown row per detector size: photos, fuzzy F1 (the set's score.py matching),
median and p95 CPU seconds per photo, images per second per core.

Run by scripts/bench/ocr.sh with .tmp/venv's Python (rapidocr and onnxruntime from PyPI, for the
bench only). Usage: ocr-rapidocr.py [--side 736,1280]
"""
import argparse, json, os, re, statistics, sys, time

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


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--side", default="736,1280")
    ap.add_argument("--only", help="a regex on file names")
    args = ap.parse_args()
    if not os.path.isdir(PHOTOS):
        print("skipped: ../shared/data not found")
        return
    sys.path.insert(0, PHOTOS)
    import score  # the set's own matching
    from rapidocr import RapidOCR

    rows = [json.loads(l) for l in open(os.path.join(PHOTOS, "truth.jsonl"), encoding="utf-8") if l.strip()]
    if args.only:
        rows = [r for r in rows if re.search(args.only, r["file"])]
    for side in [int(s) for s in args.side.split(",")]:
        engine = RapidOCR(params={"Global.log_level": "critical", "Det.limit_side_len": side,
                                  "EngineConfig.onnxruntime.intra_op_num_threads": 1,
                                  "EngineConfig.onnxruntime.inter_op_num_threads": 1})
        engine(os.path.join(PHOTOS, rows[0]["file"]))  # warm-up, not counted
        cpu, fuzzy, truth_n, pred_n = [], 0, 0, 0
        for row in rows:
            started = time.process_time()
            result = engine(os.path.join(PHOTOS, row["file"]))
            text = "\n".join(result.txts or []) if result is not None else ""
            list_text = extract(text)
            cpu.append(time.process_time() - started)
            pred = score.split_items(list_text) if list_text else []
            _, fz = score.match(pred, row["ingredients"], 0.85)
            fuzzy += fz
            truth_n += len(row["ingredients"])
            pred_n += len(pred)
        recall, precision = fuzzy / max(truth_n, 1), fuzzy / max(pred_n, 1)
        f1 = 2 * recall * precision / (recall + precision) if recall + precision else 0.0
        cpu.sort()
        p95 = cpu[min(len(cpu) - 1, int(0.95 * len(cpu)))]
        print(f"| RapidOCR Python pipeline, detector {side} px, header-and-commas | {len(rows)} | "
              f"{f1:.3f} | {statistics.median(cpu):.2f} | {p95:.2f} | {len(cpu) / sum(cpu):.2f} |")


if __name__ == "__main__":
    main()
