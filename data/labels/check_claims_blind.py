"""Mechanical checks for claims_blind.jsonl (no labels are computed here).

Run from the repository root: python data/labels/check_claims_blind.py [/path/to/shared/corpus]
"""
import json, os, re, sys

CORPUS = sys.argv[1] if len(sys.argv) > 1 else "/work/shared/corpus"
HERE = "data/labels"
FAULT_LABELS = {
    "none": {"SUPPORTED"}, "paraphrase": {"SUPPORTED"},
    "number_changed": {"CONTRADICTED"}, "deadline_differs": {"CONTRADICTED", "UNSUPPORTED"},
    "modality_changed": {"CONTRADICTED"}, "actor_swapped": {"CONTRADICTED"},
    "negation": {"CONTRADICTED"}, "wrong_requirement": {"UNSUPPORTED"},
    "missing_qualifier": {"PARTIAL"}, "scope_broadened": {"PARTIAL", "UNSUPPORTED"},
    "scope_narrowed": {"CONTRADICTED", "UNSUPPORTED"}, "unrelated": {"UNSUPPORTED"},
}
FIELDS = ["pair_id", "split", "doc_id", "citation", "in_sample_corpus", "quote", "claim", "label",
          "fault", "issues", "hedged", "alternate_quote_doc_id", "alternate_citation",
          "alternate_quote", "note"]

paths = {}
for root, _, files in os.walk(CORPUS):
    for f in files:
        if f.endswith(".md") and f != "README.md":
            paths[f[:-3]] = os.path.join(root, f)
sample = set()
for root, _, files in os.walk("data/corpus"):
    sample |= {f[:-3] for f in files if f.endswith(".md")}

def body(doc):
    text = open(paths[doc], encoding="utf-8").read()
    m = re.match(r"---\n(.*?)\n---\n", text, re.S)
    assert m and re.search(r"^doc_id:\s*\"?%s\"?\s*$" % re.escape(doc), m.group(1), re.M), doc
    return text[m.end():]

other = set()
for name in ("claims.jsonl", "claims_extra.jsonl"):
    for line in open(os.path.join(HERE, name), encoding="utf-8"):
        other.add(json.loads(line)["doc_id"])

rows = [json.loads(l) for l in open(os.path.join(HERE, "claims_blind.jsonl"), encoding="utf-8")]
errors = []
for n, r in enumerate(rows, 1):
    pid = r.get("pair_id")
    def err(msg): errors.append(f"{pid}: {msg}")
    if list(r) != FIELDS: err(f"fields {list(r)}")
    if pid != f"B{n:03d}": err("pair_id not sequential")
    if r["split"] != "dev": err("split")
    if r["doc_id"] in other: err("doc_id used in claims.jsonl / claims_extra.jsonl")
    if r["doc_id"] not in paths: err("no such document"); continue
    if r["in_sample_corpus"] != (r["doc_id"] in sample): err("in_sample_corpus")
    q = r["quote"]
    if "\n" in q or q not in body(r["doc_id"]): err("quote not verbatim on one line")
    if not 12 <= len(q.split()) <= 60: err(f"quote has {len(q.split())} words")
    if r["fault"] not in FAULT_LABELS: err("unknown fault")
    elif r["label"] not in FAULT_LABELS[r["fault"]]: err(f"label {r['label']} not allowed for {r['fault']}")
    if (r["label"] == "SUPPORTED") != (r["issues"] == []): err("issues must be empty iff SUPPORTED")
    if not isinstance(r["hedged"], bool): err("hedged")
    alt = (r["alternate_quote_doc_id"], r["alternate_citation"], r["alternate_quote"])
    if r["fault"] == "wrong_requirement":
        if None in alt: err("wrong_requirement without alternate")
        elif alt[0] not in paths or alt[2] not in body(alt[0]): err("alternate_quote not verbatim")
        elif alt[2] == q: err("alternate equals quote")
    elif alt != (None, None, None): err("alternate_* set without wrong_requirement")
ids = [r["pair_id"] for r in rows]
if len(ids) != len(set(ids)): errors.append("duplicate pair_id")
print(f"{len(rows)} pairs, {len({r['doc_id'] for r in rows})} documents, {len(errors)} errors")
for e in errors: print(e)
sys.exit(1 if errors else 0)
