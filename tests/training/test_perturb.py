"""The claim-support model's training rewrites (training/perturb.py): each rewrite of a real
quote carries the verdict its kind implies, only the verbatim and reworded claims are
supported, and the same quote always gives the same rewrites."""

from __future__ import annotations

from training.perturb import CONTRADICTED, PARTIAL, SUPPORTED, UNSUPPORTED, Quote, pairs_for

NOTIFY = Quote(
    "us-cfr-45-164.404",
    "Except as provided in § 164.412, a covered entity shall provide the notification "
    "without unreasonable delay and in no case later than 60 calendar days after discovery.",
    "obligation",
    "shall",
    "a covered entity",
)
RETAIN = Quote(
    "us-cfr-45-164.404",
    "A business associate shall retain the documentation for 6 years.",
    "obligation",
    "shall",
    "A business associate",
)
LABEL_OF = {
    "verbatim": SUPPORTED,
    "reworded": SUPPORTED,
    "modality": CONTRADICTED,
    "negation": CONTRADICTED,
    "number_changed": CONTRADICTED,
    "opposite": CONTRADICTED,
    "actor_swapped": CONTRADICTED,
    "missing_qualifier": PARTIAL,
    "scope_broadened": UNSUPPORTED,
    "invented": UNSUPPORTED,
    "wrong_requirement": UNSUPPORTED,
}


def test_each_rewrite_carries_the_verdict_of_its_kind():
    pairs = list(pairs_for(NOTIFY, [NOTIFY, RETAIN]))
    kinds = {p.kind for p in pairs}
    assert {"verbatim", "number_changed", "missing_qualifier", "wrong_requirement"} <= kinds
    for pair in pairs:
        assert pair.label == LABEL_OF[pair.kind], pair
        assert pair.evidence == NOTIFY.text
        assert (pair.claim == NOTIFY.text) == (pair.kind == "verbatim")


def test_a_changed_number_and_a_dropped_exception_read_as_expected():
    pairs = {p.kind: p.claim for p in pairs_for(NOTIFY, [NOTIFY])}
    assert "60" not in pairs["number_changed"] and "§ 164.412" in pairs["number_changed"]
    assert pairs["missing_qualifier"].startswith("A covered entity shall provide")


def test_the_same_quote_gives_the_same_rewrites():
    assert list(pairs_for(RETAIN, [NOTIFY, RETAIN])) == list(pairs_for(RETAIN, [NOTIFY, RETAIN]))
