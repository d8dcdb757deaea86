"""Records through the SDK: log (dicts, Record objects, mappings, a Hugging Face dataset), update, iterate in batches,
fetch, delete and export."""

import json

import argilla as rg
import pytest
from argilla.records._dataset_records import RecordErrorHandling

from conftest import make_dataset, record_dict, unique


def test_log_dicts_in_batches_and_iterate_in_batches(client: rg.Argilla, workspace: rg.Workspace):
    dataset = make_dataset(client, workspace)
    # 23 records in batches of 5: five bulk requests, the last one short.
    dataset.records.log([record_dict(i) for i in range(23)], batch_size=5)

    listed = list(dataset.records)
    assert [r.id for r in listed] == [f"rec-{i}" for i in range(23)]
    for batch_size in (1, 4, 23, 100):
        assert [r.id for r in dataset.records(batch_size=batch_size)] == [f"rec-{i}" for i in range(23)]
    assert [r.id for r in dataset.records(start_offset=20)] == ["rec-20", "rec-21", "rec-22"]
    assert [r.id for r in dataset.records(limit=7, batch_size=3)] == [f"rec-{i}" for i in range(7)]
    assert [r.id for r in dataset.records(start_offset=5, limit=2)] == ["rec-5", "rec-6"]

    record = listed[4]
    assert record._server_id is not None
    assert record.status == "pending"
    assert record.fields["text"] == "Story 4 about music"
    assert [(m.role, m.content) for m in record.fields["chat"]] == [("user", "question 4"), ("assistant", "answer")]
    assert record.fields["custom"] == {"key": "value 4"}
    # The SDK hands image fields back as PIL images.
    assert record.fields["image"].size == (1, 1)
    assert record.metadata == {"topic": "music", "rank": 4, "score": 0.4}
    # Vectors come only when asked for.
    assert dict(record.vectors) == {}
    (with_vectors,) = list(dataset.records(with_vectors=True, start_offset=4, limit=1))
    assert with_vectors.vectors["emb"] == pytest.approx([0.0, 1.0, 0.004])
    (named,) = list(dataset.records(with_vectors=["emb"], start_offset=4, limit=1))
    assert named.vectors["emb"] == pytest.approx([0.0, 1.0, 0.004])
    (by_name,) = list(dataset.records(with_vectors="emb", start_offset=4, limit=1))
    assert "emb" in by_name.vectors


def test_log_record_objects_with_suggestions_and_responses(client: rg.Argilla, workspace: rg.Workspace):
    dataset = make_dataset(client, workspace)
    me = client.me
    record = rg.Record(
        id="obj-1",
        fields={"text": "Ada Lovelace met Charles Babbage in London", "custom": {"key": "k"}},
        metadata={"topic": "science", "rank": 7, "score": 0.5},
        vectors={"emb": [0.1, 0.2, 0.3]},
        suggestions=[
            rg.Suggestion("label", "positive", score=0.9, agent="model-a"),
            rg.Suggestion("topics", ["science", "music"], score=[0.8, 0.2], agent="model-a"),
            rg.Suggestion("rating", 4, type="human"),
            rg.Suggestion("ranking", ["b", "a", "c"]),
            rg.Suggestion("comment", "A suggested comment"),
            rg.Suggestion("entities", [{"label": "PER", "start": 0, "end": 12}]),
        ],
        responses=[
            rg.Response("label", "negative", user_id=me.id, status="submitted"),
            rg.Response("topics", ["science"], user_id=me.id, status="submitted"),
            rg.Response("rating", 5, user_id=me.id, status="submitted"),
            # The SDK sends a ranking given as names without ranks, which Argilla refuses once submitted: ranks are given.
            rg.Response("ranking", [{"value": "c", "rank": 1}, {"value": "b", "rank": 2}, {"value": "a", "rank": 3}], user_id=me.id, status="submitted"),
            rg.Response("comment", "Fine", user_id=me.id, status="submitted"),
            rg.Response("entities", [{"label": "LOC", "start": 36, "end": 42}], user_id=me.id, status="submitted"),
        ],
    )
    dataset.records.log([record])

    (stored,) = list(dataset.records(with_vectors=True))
    assert stored.id == "obj-1"
    assert stored.status == "completed"
    assert stored.vectors["emb"] == pytest.approx([0.1, 0.2, 0.3])
    suggestions = stored.suggestions
    assert suggestions["label"].value == "positive"
    assert suggestions["label"].score == pytest.approx(0.9)
    assert suggestions["label"].agent == "model-a"
    assert suggestions["topics"].value == ["science", "music"]
    assert suggestions["topics"].score == pytest.approx([0.8, 0.2])
    assert suggestions["rating"].value == 4 and suggestions["rating"].type == "human"
    assert suggestions["ranking"].value == ["b", "a", "c"]
    assert suggestions["comment"].value == "A suggested comment"
    assert suggestions["entities"].value == [{"label": "PER", "start": 0, "end": 12}]

    responses = stored.responses
    assert len(responses) == 6
    assert responses["label"][0].value == "negative"
    assert responses["label"][0].user_id == me.id
    assert responses["label"][0].status == "submitted"
    assert responses["topics"][0].value == ["science"]
    assert responses["rating"][0].value == 5
    assert responses["ranking"][0].value == ["c", "b", "a"]
    assert responses["comment"][0].value == "Fine"
    assert responses["entities"][0].value == [{"label": "LOC", "start": 36, "end": 42}]

    # Without suggestions and responses when asked so.
    (bare,) = list(dataset.records(with_suggestions=False, with_responses=False))
    assert len(bare.suggestions) == 0 and len(bare.responses) == 0


def test_log_with_a_mapping(client: rg.Argilla, workspace: rg.Workspace):
    dataset = make_dataset(client, workspace)
    rows = [
        {"key": "m-1", "content": "mapped one", "predicted": "positive", "confidence": 0.7, "gold": "neutral", "kind": "sport"},
        {"key": "m-2", "content": "mapped two", "predicted": "negative", "confidence": 0.3, "gold": "positive", "kind": "music"},
    ]
    mapping = {
        "key": "id",
        "content": "text",
        "predicted": "label.suggestion",
        "confidence": "label.suggestion.score",
        "gold": "label.response",
        "kind": "topic",
    }
    dataset.records.log(rows, mapping=mapping)
    stored = {r.id: r for r in dataset.records}
    assert set(stored) == {"m-1", "m-2"}
    assert stored["m-1"].fields["text"] == "mapped one"
    assert stored["m-1"].suggestions["label"].value == "positive"
    assert stored["m-1"].suggestions["label"].score == pytest.approx(0.7)
    assert stored["m-1"].responses["label"][0].value == "neutral"
    assert stored["m-1"].responses["label"][0].user_id == client.me.id
    assert stored["m-2"].metadata["topic"] == "music"


def test_log_again_updates_records_by_id(client: rg.Argilla, workspace: rg.Workspace):
    dataset = make_dataset(client, workspace, records=3)
    before = {r.id: r._server_id for r in dataset.records}

    # Dicts with known ids update: metadata changes, a new id is added.
    dataset.records.log([
        {"id": "rec-0", "topic": "science", "rank": 100},
        {"id": "rec-1", "label": "negative"},
        record_dict(3),
    ])
    after = {r.id: r for r in dataset.records}
    assert list(after) == ["rec-0", "rec-1", "rec-2", "rec-3"]
    assert {k: after[k]._server_id for k in before} == before
    assert after["rec-0"].metadata["topic"] == "science" and after["rec-0"].metadata["rank"] == 100
    assert after["rec-0"].fields["text"] == "Story 0 about sport"
    assert after["rec-1"].suggestions["label"].value == "negative"

    # Records read from the server, changed and logged back.
    records = list(dataset.records)
    for record in records:
        record.metadata["score"] = 0.25
        record.suggestions.add(rg.Suggestion("rating", 2))
    dataset.records.log(records)
    assert all(r.metadata["score"] == 0.25 for r in dataset.records)
    assert all(r.suggestions["rating"].value == 2 for r in dataset.records)
    assert len(list(dataset.records)) == 4


def test_records_without_external_id_get_server_ids(client: rg.Argilla, workspace: rg.Workspace):
    dataset = make_dataset(client, workspace)
    dataset.records.log([{"text": "no id one"}, {"text": "no id two"}])
    records = list(dataset.records)
    assert [r.fields["text"] for r in records] == ["no id one", "no id two"]
    # The SDK fills in a UUID as external id when a record has none.
    assert all(r.id is not None and r._server_id is not None for r in records)


def test_log_a_hugging_face_dataset(client: rg.Argilla, workspace: rg.Workspace):
    from datasets import Dataset as HFDataset

    dataset = rg.Dataset(
        name=unique("hf"),
        workspace=workspace,
        settings=rg.Settings(
            fields=[rg.TextField(name="text")],
            questions=[rg.LabelQuestion(name="label", labels=["a", "b"])],
            metadata=[rg.IntegerMetadataProperty(name="rank")],
        ),
        client=client,
    ).create()
    hf = HFDataset.from_list([{"id": f"hf-{i}", "text": f"from the hub {i}", "rank": i} for i in range(5)])
    dataset.records.log(hf)
    assert [r.id for r in dataset.records] == [f"hf-{i}" for i in range(5)]
    exported = dataset.records.to_datasets()
    assert exported.num_rows == 5
    assert exported[0]["text"] == "from the hub 0"


def test_on_error_ignore_skips_bad_rows(client: rg.Argilla, workspace: rg.Workspace):
    dataset = make_dataset(client, workspace)
    rows = [{"id": "a", "text": "fine"}, {"unknown": "x"}, {"id": "b", "text": "fine"}, {"id": "c", "text": "fine"}]
    # The SDK counts its batches over all rows, skipped ones included, and sends an empty last batch (which Argilla
    # refuses too) unless the counts line up: four rows, three kept, batches of two.
    dataset.records.log(rows, on_error=RecordErrorHandling.IGNORE, batch_size=2)
    assert [r.id for r in dataset.records] == ["a", "b", "c"]
    with pytest.warns(UserWarning):
        dataset.records.log(rows, on_error=RecordErrorHandling.WARN, batch_size=2)
    with pytest.raises(rg._exceptions.RecordsIngestionError):
        dataset.records.log([{"unknown": "x"}])


def test_invalid_records_raise_an_api_error(client: rg.Argilla, workspace: rg.Workspace):
    dataset = make_dataset(client, workspace)
    with pytest.raises(rg._exceptions.UnprocessableEntityError):
        dataset.records.log([{"id": "x", "text": "ok", "topic": "not-an-option"}])
    with pytest.raises(rg._exceptions.UnprocessableEntityError):
        dataset.records.log([{"id": "y", "text": "ok", "emb": [1.0, 2.0]}])
    assert list(dataset.records) == []


def test_record_get_and_delete(client: rg.Argilla, workspace: rg.Workspace):
    dataset = make_dataset(client, workspace, records=5)
    records = list(dataset.records)
    fetched = records[2].get()
    assert fetched.fields["text"] == "Story 2 about science"

    dataset.records.delete(records[:2])
    assert [r.id for r in dataset.records] == ["rec-2", "rec-3", "rec-4"]
    dataset.records.delete(list(dataset.records), batch_size=2)
    assert list(dataset.records) == []


def test_export_to_list_dict_and_json(tmp_path, client: rg.Argilla, workspace: rg.Workspace):
    dataset = make_dataset(client, workspace, records=3)
    nested = dataset.records.to_list()
    assert [r["id"] for r in nested] == ["rec-0", "rec-1", "rec-2"]
    assert nested[0]["fields"]["text"] == "Story 0 about sport"
    assert nested[0]["metadata"]["topic"] == "sport"
    flat = dataset.records.to_list(flatten=True)
    assert flat[1]["text"] == "Story 1 about music"
    by_name = dataset.records.to_dict()
    assert by_name["id"] == ["rec-0", "rec-1", "rec-2"]
    by_index = dataset.records.to_dict(orient="index")
    assert len(by_index) == 3

    path = dataset.records.to_json(tmp_path / "records.json")
    assert [r["id"] for r in json.loads(path.read_text())] == ["rec-0", "rec-1", "rec-2"]

    # from_json onto another dataset of the same settings: the exported server ids are not reused.
    other = make_dataset(client, workspace)
    other.records.from_json(path)
    copied = list(other.records)
    assert [r.id for r in copied] == ["rec-0", "rec-1", "rec-2"]
    originals = {r._server_id for r in dataset.records}
    assert originals.isdisjoint({r._server_id for r in copied})
    assert [r.id for r in dataset.records] == ["rec-0", "rec-1", "rec-2"]


def test_many_records_in_default_batches(client: rg.Argilla, workspace: rg.Workspace):
    dataset = rg.Dataset(
        name=unique("big"),
        workspace=workspace,
        settings=rg.Settings(fields=[rg.TextField(name="text")], questions=[rg.LabelQuestion(name="label", labels=["a", "b"])]),
        client=client,
    ).create()
    # 1 200 records: three bulk requests of the SDK's maximum of 500 (the default batch of 256 is normalised down).
    dataset.records.log([{"id": str(i), "text": f"text {i}"} for i in range(1200)], batch_size=1000)
    ids = [r.id for r in dataset.records(batch_size=500)]
    assert ids == [str(i) for i in range(1200)]
    assert dataset.progress()["total"] == 1200
