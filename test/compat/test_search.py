"""Queries through the SDK: text, filters on every scope the SDK knows, vector similarity, and their combinations."""

import argilla as rg
import pytest

from conftest import make_dataset, record_dict

COUNT = 30


@pytest.fixture(scope="module")
def searchable(client: rg.Argilla, workspace: rg.Workspace) -> rg.Dataset:
    """30 records: topics cycle sport/music/science; rec-0..9 get a suggestion, rec-0..4 the owner's response."""
    rg.Argilla._set_default(client)
    dataset = make_dataset(client, workspace)
    rows = []
    for i in range(COUNT):
        row = record_dict(i)
        if i < 10:
            row["label"] = "positive" if i % 2 == 0 else "negative"
            row["label.score"] = i / 10
            row["label.agent"] = "model-a" if i < 5 else "model-b"
        if i < 5:
            row["topics.response"] = ["sport"]
        rows.append(row)
    mapping = {"label.score": "label.suggestion.score", "label.agent": "label.suggestion.agent", "topics.response": "topics.response"}
    dataset.records.log(rows, mapping=mapping)
    return dataset


def ids(records) -> list:
    return [r.id for r in records]


def test_text_query(searchable: rg.Dataset):
    found = ids(searchable.records(query="music"))
    assert sorted(found) == sorted(f"rec-{i}" for i in range(COUNT) if i % 3 == 1)
    assert ids(searchable.records(query=rg.Query(query="Story 7"))) [0] == "rec-7"
    assert ids(searchable.records(query="nothing-matches-this")) == []


def test_metadata_filters(searchable: rg.Dataset):
    sport = ids(searchable.records(query=rg.Query(filter=rg.Filter(("metadata.topic", "==", "sport")))))
    assert sorted(sport) == sorted(f"rec-{i}" for i in range(0, COUNT, 3))
    in_two = ids(searchable.records(query=rg.Query(filter=rg.Filter(("metadata.topic", "in", ["music", "science"])))))
    assert len(in_two) == 20
    ranged = ids(searchable.records(query=rg.Query(filter=rg.Filter([("metadata.rank", ">=", 10), ("metadata.rank", "<=", 12)]))))
    assert sorted(ranged) == ["rec-10", "rec-11", "rec-12"]
    floats = ids(searchable.records(query=rg.Query(filter=[("metadata.score", ">=", 0.85)])))
    assert sorted(floats) == sorted(f"rec-{i}" for i in range(COUNT) if i % 10 == 9)
    # A tuple is a filter too, and filters combine with a text query.
    combined = ids(searchable.records(query=rg.Query(query="Story", filter=("metadata.rank", "<=", 2))))
    assert sorted(combined) == ["rec-0", "rec-1", "rec-2"]


def test_suggestion_filters(searchable: rg.Dataset):
    positive = ids(searchable.records(query=rg.Query(filter=rg.Filter(("label", "==", "positive")))))
    assert sorted(positive) == ["rec-0", "rec-2", "rec-4", "rec-6", "rec-8"]
    by_scope = ids(searchable.records(query=rg.Query(filter=rg.Filter(("label.suggestion", "==", "negative")))))
    assert sorted(by_scope) == ["rec-1", "rec-3", "rec-5", "rec-7", "rec-9"]
    scored = ids(searchable.records(query=rg.Query(filter=rg.Filter(("label.score", ">=", 0.75)))))
    assert sorted(scored) == ["rec-8", "rec-9"]
    by_agent = ids(searchable.records(query=rg.Query(filter=rg.Filter(("label.agent", "==", "model-b")))))
    assert sorted(by_agent) == ["rec-5", "rec-6", "rec-7", "rec-8", "rec-9"]


def test_response_and_status_filters(searchable: rg.Dataset):
    answered = ids(searchable.records(query=rg.Query(filter=rg.Filter(("topics.response", "==", "sport")))))
    assert sorted(answered) == [f"rec-{i}" for i in range(5)]
    drafts = ids(searchable.records(query=rg.Query(filter=rg.Filter(("response.status", "==", "draft")))))
    # Mapped responses of the SDK are drafts unless a status is given.
    assert sorted(drafts) == [f"rec-{i}" for i in range(5)]
    pending = ids(searchable.records(query=rg.Query(filter=rg.Filter(("status", "==", "pending")))))
    assert len(pending) == COUNT


def test_record_property_filters(searchable: rg.Dataset):
    by_external = ids(searchable.records(query=rg.Query(filter=rg.Filter(("id", "in", ["rec-3", "rec-4"])))))
    assert sorted(by_external) == ["rec-3", "rec-4"]
    first = next(iter(searchable.records))
    by_server = ids(searchable.records(query=rg.Query(filter=rg.Filter(("_server_id", "==", str(first._server_id))))))
    assert by_server == [first.id]
    since = ids(searchable.records(query=rg.Query(filter=rg.Filter(("inserted_at", ">=", first.inserted_at.isoformat())))))
    assert len(since) == COUNT
    updated = ids(searchable.records(query=rg.Query(filter=rg.Filter(("updated_at", "<=", "2000-01-01T00:00:00")))))
    assert updated == []


def test_vector_similarity(searchable: rg.Dataset):
    # Records along the first axis are sport (i % 3 == 0); the SDK yields (record, score) pairs for a similarity query.
    results = list(searchable.records(query=rg.Query(similar=rg.Similar(name="emb", value=[1.0, 0.0, 0.0])), limit=10))
    assert len(results) == 10
    record, score = results[0]
    # JSON has one number type: a score of exactly 1 reads as the int 1 in Python.
    assert isinstance(record, rg.Record) and isinstance(score, (int, float))
    assert all(int(r.id.split("-")[1]) % 3 == 0 for r, _ in results)
    scores = [s for _, s in results]
    assert scores == sorted(scores, reverse=True)

    least = list(searchable.records(query=rg.Query(similar=rg.Similar(name="emb", value=[1.0, 0.0, 0.0], most_similar=False)), limit=5))
    assert all(int(r.id.split("-")[1]) % 3 != 0 for r, _ in least)

    # Similar to a record: the record itself is left out.
    (anchor,) = list(searchable.records(query=rg.Query(filter=rg.Filter(("id", "==", "rec-4")))))
    like = list(searchable.records(query=rg.Query(similar=rg.Similar(name="emb", value=anchor)), limit=5))
    assert "rec-4" not in [r.id for r, _ in like]
    assert all(int(r.id.split("-")[1]) % 3 == 1 for r, _ in like)

    # Similarity with a filter. A `limit` is needed: vector search ignores `offset` (Argilla's too) and the SDK pages
    # by offset, so iterating a similarity query without one never ends.
    filtered = list(searchable.records(
        query=rg.Query(similar=rg.Similar(name="emb", value=[0.0, 0.0, 1.0]), filter=rg.Filter(("metadata.rank", "<=", 10))),
        limit=11,
    ))
    assert len({r.id for r, _ in filtered}) == 11
    assert all(int(r.id.split("-")[1]) <= 10 for r, _ in filtered)


def test_search_pages_in_batches(searchable: rg.Dataset):
    every = ids(searchable.records(query=rg.Query(filter=rg.Filter(("metadata.rank", ">=", 0))), batch_size=7))
    assert sorted(every) == sorted(f"rec-{i}" for i in range(COUNT))
    limited = ids(searchable.records(query="Story", batch_size=4, limit=9))
    assert len(limited) == 9 and len(set(limited)) == 9


def test_status_filters_with_submitted_answers(client: rg.Argilla, workspace: rg.Workspace):
    dataset = make_dataset(client, workspace, records=4)
    records = list(dataset.records)
    records[0].responses.add(rg.Response("label", "positive", user_id=client.me.id, status="submitted"))
    records[1].suggestions.add(rg.Suggestion("label", "negative"))
    dataset.records.log(records[:2])

    def found(*conditions):
        return sorted(ids(dataset.records(query=rg.Query(filter=rg.Filter(list(conditions))))))

    assert found(("status", "==", "completed")) == ["rec-0"]
    assert found(("status", "==", "pending")) == ["rec-1", "rec-2", "rec-3"]
    # "pending" as a response status is "no response yet".
    assert found(("response.status", "==", "pending")) == ["rec-1", "rec-2", "rec-3"]
    assert found(("response.status", "in", ["submitted", "pending"])) == ["rec-0", "rec-1", "rec-2", "rec-3"]
    assert found(("label.response", "==", "positive")) == ["rec-0"]
    assert found(("label.suggestion", "==", "negative"), ("status", "==", "pending")) == ["rec-1"]
    # Vectors come with search results when asked for.
    (hit,) = list(dataset.records(query="Story 2", with_vectors=True))
    assert hit.vectors["emb"] == pytest.approx([0.002, 0.0, 1.0])


@pytest.mark.skip(reason="SDK limitation: vector search ignores `offset` (Argilla's too) and the SDK pages by offset, so iterating a similarity query without `limit` never ends, against any server")
def test_similarity_query_without_a_limit(searchable: rg.Dataset):
    assert len(list(searchable.records(query=rg.Query(similar=rg.Similar(name="emb", value=[1.0, 0.0, 0.0]))))) == COUNT
