"""The wording of legal rules, read one way by extraction and by the claim checks.

`grammar` holds the clause parts both readers of modal wording use (pronouns, prepositions,
relative words, the participles of duty, leave and ban, asides, "by" agents); `lists` loads the
word lists kept as data files under lists/, each with a header saying where it came from.
"""
