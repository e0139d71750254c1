"""Legal text for the rules' tests: real quotes of the sample corpus (data/corpus) whose wording
the tests change, the corpus's whole text to find them in, and a shortened section of the CFR."""

from __future__ import annotations

from functools import cache

from .paths import SAMPLE_CORPUS

NOTIFY = (  # 45 CFR § 164.404(b)
    "Except as provided in § 164.412, a covered entity shall provide the notification required "
    "by paragraph (a) of this section without unreasonable delay and in no case later than 60 "
    "calendar days after discovery of a breach."
)
BUSINESS_ASSOCIATE = (  # 45 CFR § 164.410(a)(1)
    "A business associate shall, following the discovery of a breach of unsecured protected "
    "health information, notify the covered entity of such breach."
)
LOG = (  # 42 U.S.C. 17932(e)(3)
    "If the breach was with respect to less than 500 individuals, the covered entity may "
    "maintain a log of any such breach occurring and annually submit such a log to the "
    "Secretary documenting such breaches occurring during the year involved."
)
MEDIA = (  # 45 CFR § 164.406(a)
    "For a breach of unsecured protected health information involving more than 500 residents "
    "of a State or jurisdiction, a covered entity shall, following the discovery of the breach "
    "as provided in § 164.404(a)(2), notify prominent media outlets serving the State or "
    "jurisdiction."
)
REVOKE = (  # 45 CFR § 164.508(b)(5)
    "An individual may revoke an authorization provided under this section at any time, "
    "provided that the revocation is in writing, except to the extent that:"
)
CHARGE = (
    "However, the reasonable charge for paper copies shall not exceed seventy-five cents per page."
)
RETAIN = (  # 45 CFR § 164.530(j)(2)
    "A covered entity must retain the documentation required by paragraph (j)(1) of this section "
    "for six years from the date of its creation or the date when it last was in effect, "
    "whichever is later."
)
OPT_OUT = (  # 12 CFR 1016.7(e)
    "You must comply with a consumer's opt out direction as soon as reasonably practicable after "
    "you receive it."
)
COMMITTEE = (  # N.Y. Mental Hygiene Law § 33.16(d)
    "Such clinical record access review committees shall consist of no less than three nor more "
    "than five persons."
)
REPORT = (  # 42 U.S.C. 17932(i)
    "Not later than 12 months after February 17, 2009 , and annually thereafter, the Secretary "
    "shall prepare and submit to the Committee on Finance and the Committee on Health, Education, "
    "Labor, and Pensions of the Senate and the Committee on Ways and Means and the Committee on "
    "Energy and Commerce of the House of Representatives a report containing the information "
    "described in paragraph (2) regarding breaches for which notice was provided to the "
    "Secretary under subsection (e)(3)."
)
QUOTES = (
    NOTIFY,
    BUSINESS_ASSOCIATE,
    LOG,
    MEDIA,
    REVOKE,
    CHARGE,
    RETAIN,
    OPT_OUT,
    COMMITTEE,
    REPORT,
)


@cache
def corpus_text() -> str:
    """The Markdown files of the sample corpus, joined in path order."""
    return "\n".join(p.read_text(encoding="utf-8") for p in sorted(SAMPLE_CORPUS.rglob("*.md")))


# 45 CFR § 164.308, shortened: labelled paragraphs nested three deep.
CFR = """# § 164.308 Administrative safeguards

(a) A covered entity must, in accordance with § 164.306:

(1)(i) Standard: Security management process. Implement policies.

(ii) Implementation specifications:

(A) Risk analysis (Required). Conduct an assessment.

(B) Risk management (Required). Implement measures.

(2) Standard: Assigned security responsibility. Identify the official.

(b)(1) A covered entity may permit a business associate to act."""

# 45 CFR § 164.404(c), shortened: enumerated items under their lead-in.
BREACH = """# § 164.404 Notification to individuals

(c) Implementation specifications: Content of notification --

(1) Elements. The notification required by paragraph (a) of this section shall include, to the extent possible:

(A) A brief description of what happened, including the date of the breach and the date of the discovery of the breach, if known;

(B) Any steps individuals should take to protect themselves from potential harm resulting from the breach;

(2) Plain language requirement. The notification required by paragraph (a) of this section shall be written in plain language."""
