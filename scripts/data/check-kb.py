#!/usr/bin/env python3
"""Quick validator for crates/domain/data/*.toml (for data authors; the Rust test
crates/domain/tests/kb_integrity.rs is the authority). Usage: scripts/data/check-kb.py [DATA_DIR]"""
import sys, tomllib, pathlib, re, collections, unicodedata

data = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).resolve().parents[2] / "crates/domain/data")
LANGS = ["fr", "es", "de", "it", "pt", "ko", "ja", "zh"]
ALLERGENS = {"gluten","crustaceans","eggs","fish","peanuts","soybeans","milk","nuts","celery","mustard","sesame","sulphites","lupin","molluscs","fragrance","parabens","sulfates","formaldehyde"}
FUNCTIONS = set("""colour preservative antioxidant emulsifier stabiliser thickener gelling-agent sweetener acidity-regulator acid flavour-enhancer raising-agent anti-caking-agent humectant glazing-agent firming-agent flour-treatment-agent bulking-agent carrier propellant sequestrant modified-starch packaging-gas foaming-agent antifoaming-agent flavouring emollient surfactant cleansing-agent uv-filter colourant fragrance solvent skin-conditioning film-former viscosity-controlling ph-adjuster chelating-agent active exfoliant opacifier abrasive antimicrobial hair-conditioning occlusive absorbent food banned-substance""".split())
SKIN = {"fragrance","essential-oil","drying-alcohol","harsh-surfactant","sensitising-preservative","comedogenic","exfoliating-acid","irritant"}
errors = []
def err(f, n, m): errors.append(f"{f}: {n}: {m}")
def key(s): return unicodedata.normalize("NFKC", s).casefold().strip()

sources = {}
for f in sorted(data.glob("*.toml")):
    try: doc = tomllib.loads(f.read_text())
    except Exception: continue
    for sid, src in doc.get("sources", {}).items():
        if sid in sources: err(f.name, sid, "source id declared twice")
        if not src.get("title"): err(f.name, sid, "source without title")
        sources[sid] = src
seen = {}; enums = {}; cis = {}; total = 0; multilingual = 0
entries = []
for f in sorted(data.glob("*.toml")):
    try: doc = tomllib.loads(f.read_text())
    except Exception as e: err(f.name, "-", f"TOML error: {e}"); continue
    for e in doc.get("ingredient", []):
        total += 1; n = e.get("name", "?"); entries.append((f.name, e))
        for req in ["name","purpose","function","origin","category","score","score_reason","sources"]:
            if req not in e: err(f.name, n, f"missing {req}")
        if e.get("origin") not in ("Natural","Synthetic","Semi-synthetic"): err(f.name, n, f"bad origin {e.get('origin')}")
        if e.get("category") not in ("Food","Cosmetics","Both"): err(f.name, n, f"bad category {e.get('category')}")
        if e.get("function") not in FUNCTIONS: err(f.name, n, f"bad function {e.get('function')}")
        s = e.get("score", 0)
        if not isinstance(s, int) or not 1 <= s <= 10: err(f.name, n, f"bad score {s}")
        if e.get("eu_cosmetics") == "annex-ii" and s > 3: err(f.name, n, "annex-ii must score <= 3")
        if e.get("iarc") in ("1","2A") and s > 6: err(f.name, n, "IARC 1/2A must score <= 6")
        for a in e.get("allergens", []):
            if a not in ALLERGENS: err(f.name, n, f"bad allergen {a}")
        for k in e.get("skin", []):
            if k not in SKIN: err(f.name, n, f"bad skin flag {k}")
        if not e.get("sources"): err(f.name, n, "no sources")
        for sid in e.get("sources", []) + [c.get("source") for c in e.get("concerns", [])]:
            if sid not in sources: err(f.name, n, f"unknown source id {sid}")
        for c in e.get("concerns", []):
            if not c.get("text"): err(f.name, n, "concern without text")
        ident = (f.name, total)
        labels = {key(label): label for label in [n] + e.get("synonyms", [])}
        for k, label in labels.items():
            if k in seen and seen[k][0] != ident:
                err(f.name, n, f"name/synonym '{label}' also used by '{seen[k][1]}' in {seen[k][0][0]}")
            seen[k] = (ident, n)
        if "e_number" in e:
            if not re.fullmatch(r"E\d{3,4}[a-z]?(\([ivx]+\))?", e["e_number"]): err(f.name, n, f"bad e_number {e['e_number']}")
            if e["e_number"] in enums: err(f.name, n, f"duplicate e_number with {enums[e['e_number']]}")
            enums[e["e_number"]] = n
        if "ci_number" in e:
            if not re.fullmatch(r"CI \d{5}(:\d)?", e["ci_number"]): err(f.name, n, f"bad ci_number {e['ci_number']}")
            if e["ci_number"] in cis: err(f.name, n, f"duplicate ci_number with {cis[e['ci_number']]}")
            cis[e["ci_number"]] = n
        names = e.get("names", {})
        for l in names:
            if l not in LANGS: err(f.name, n, f"unknown language {l}")
        if all(names.get(l) for l in LANGS): multilingual += 1
canon = {key(e["name"]) for _, e in entries if "name" in e}
for fname, e in entries:
    for a in e.get("alternatives", []):
        if key(a) not in canon: err(fname, e.get("name"), f"alternative '{a}' is not a canonical entry name")
for x in errors[:200]: print(x)
print(f"{total} entries, {multilingual} with all 8 languages, {len(sources)} sources, {len(errors)} errors")
sys.exit(1 if errors else 0)
