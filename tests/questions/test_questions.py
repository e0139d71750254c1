"""Question files: YAML, CSV and JSONL load; each malformed row is rejected with its line."""

from __future__ import annotations

from pathlib import Path

from groundwork.questions import loaded_questions
from tests.support.paths import REPO


def test_shipped_question_set_loads_whole():
    loaded = loaded_questions(REPO / "data" / "questions.yaml")
    assert len(loaded.questions) >= 25 and loaded.rejections == []
    assert any(q.source_types == ["policy"] for q in loaded.questions)


def test_yaml_rows_rejected_with_line_numbers(tmp_path: Path):
    path = tmp_path / "q.yaml"
    path.write_text(
        "questions:\n"
        "  - question_id: A\n"
        "    question: What must a covered entity do after a breach?\n"
        "  - question_id: B\n"  # line 4: no question
        "  - question_id: C\n"  # line 5: unknown source type
        "    question: Who keeps the records?\n"
        "    source_types: [treaty]\n"
        "  - question_id: A\n"  # line 8: duplicate
        "    question: Again?\n"
        "  - just a string\n"  # line 10
    )
    loaded = loaded_questions(path)
    assert [q.question_id for q in loaded.questions] == ["A"]
    assert [(r["line"], r["question_id"]) for r in loaded.rejections] == [
        (4, "B"),
        (5, "C"),
        (8, "A"),
        (10, None),
    ]
    assert "question" in loaded.rejections[0]["reason"]
    assert "treaty" in loaded.rejections[1]["reason"]
    assert "duplicate" in loaded.rejections[2]["reason"]


def test_csv_and_jsonl(tmp_path: Path):
    csv_path = tmp_path / "q.csv"
    csv_path.write_text(
        "question_id,question,source_types,jurisdiction\n"
        "1,Who must notify the Secretary?,regulation;statute,US-Federal\n"
        "2,Too,many,columns,here\n"
    )
    loaded = loaded_questions(csv_path)
    assert [(q.question_id, q.source_types) for q in loaded.questions] == [
        ("1", ["regulation", "statute"])
    ]
    assert [r["line"] for r in loaded.rejections] == [3]
    jsonl = tmp_path / "q.jsonl"
    jsonl.write_text('{"question_id": "x", "question": "Who keeps records?"}\n{oops\n\n[1]\n')
    loaded = loaded_questions(jsonl)
    assert [q.question_id for q in loaded.questions] == ["x"]
    assert [r["line"] for r in loaded.rejections] == [2, 4]


def test_unreadable_files_are_one_rejection(tmp_path: Path):
    bad = tmp_path / "q.yaml"
    bad.write_text("questions: [unclosed\n")
    assert len(loaded_questions(bad).rejections) == 1
    other = tmp_path / "q.txt"
    other.write_text("what?")
    assert "unsupported" in loaded_questions(other).rejections[0]["reason"]


def test_a_labelled_set_runs_as_it_is(tmp_path: Path):
    """data/plain-questions/ names a question's ID `id`; its other fields are not the table's."""
    labelled = tmp_path / "dev.jsonl"
    labelled.write_text(
        '{"id": "POL-0001", "question": "Who keeps the records?", "answerable": true, '
        '"answers": [{"doc_id": "d", "quote": "keeps"}], "family": "gsa-tts"}\n'
        '{"id": "POL-0001", "question": "Again?"}\n'
        '{"question": "No ID at all?"}\n'
    )
    loaded = loaded_questions(labelled)
    assert [q.question_id for q in loaded.questions] == ["POL-0001"]
    assert [(r["line"], r["question_id"]) for r in loaded.rejections] == [
        (2, "POL-0001"),
        (3, None),
    ]
    assert loaded_questions(REPO / "data" / "plain-questions" / "dev.jsonl").rejections == []
