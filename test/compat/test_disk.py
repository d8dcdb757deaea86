"""`Dataset.to_disk` and `Dataset.from_disk` onto the same server: the exported dataset, settings and records carry the
ids of the original, which creates must ignore (Argilla's create schemas have no id)."""

import json

import argilla as rg
import pytest

from conftest import make_dataset, unique


def exported(client: rg.Argilla, workspace: rg.Workspace, tmp_path):
    dataset = make_dataset(client, workspace, records=6)
    me = client.me
    records = list(dataset.records)
    records[0].responses.add(rg.Response("label", "positive", user_id=me.id, status="submitted"))
    records[1].suggestions.add(rg.Suggestion("label", "negative", score=0.5, agent="model-a"))
    dataset.records.log(records[:2])
    path = dataset.to_disk(str(tmp_path / "export"))
    return dataset, path


def test_to_disk_writes_the_dataset_settings_and_records(tmp_path, client: rg.Argilla, workspace: rg.Workspace):
    (tmp_path / "export").mkdir()
    dataset, path = exported(client, workspace, tmp_path)
    model = json.loads((tmp_path / "export/.argilla/dataset.json").read_text())
    assert model["id"] == str(dataset.id) and model["name"] == dataset.name
    settings = json.loads((tmp_path / "export/.argilla/settings.json").read_text())
    assert [f["name"] for f in settings["fields"]] == ["text", "image", "chat", "custom"]
    records = json.loads((tmp_path / "export/records.json").read_text())
    assert [r["id"] for r in records] == [f"rec-{i}" for i in range(6)]


def test_from_disk_onto_the_same_server(tmp_path, client: rg.Argilla, workspace: rg.Workspace):
    (tmp_path / "export").mkdir()
    source, path = exported(client, workspace, tmp_path)
    copy = rg.Dataset.from_disk(path, name=unique("copy"), workspace=workspace.name, client=client)

    assert copy.id != source.id
    assert copy.workspace.id == workspace.id
    fetched = client.datasets(id=copy.id).get()
    assert [f.name for f in fetched.settings.fields] == ["text", "image", "chat", "custom"]
    assert [q.name for q in fetched.settings.questions] == ["label", "topics", "rating", "ranking", "comment", "entities"]
    assert {m.name for m in fetched.settings.metadata} == {"topic", "rank", "score"}
    assert [v.name for v in fetched.settings.vectors] == ["emb"]
    assert {f.id for f in fetched.settings.fields}.isdisjoint({f.id for f in source.settings.fields})
    assert {q.id for q in fetched.settings.questions}.isdisjoint({q.id for q in source.settings.questions})

    copied = {r.id: r for r in copy.records}
    assert list(copied) == [f"rec-{i}" for i in range(6)]
    assert {r._server_id for r in copied.values()}.isdisjoint({r._server_id for r in source.records})
    assert copied["rec-0"].responses["label"][0].value == "positive"
    # The SDK's JSON export keeps a response's value and user but not its status: it comes back as a draft.
    assert copied["rec-0"].responses["label"][0].status == "draft"
    assert copied["rec-0"].status == "pending"
    assert copied["rec-1"].suggestions["label"].value == "negative"
    assert copied["rec-2"].metadata == {"topic": "science", "rank": 2, "score": 0.2}

    # The source is untouched.
    assert [r.id for r in source.records] == [f"rec-{i}" for i in range(6)]
    assert client.datasets(id=source.id).get().settings.fields["text"].dataset.id == source.id


def test_from_disk_into_another_workspace_under_the_same_name(tmp_path, client: rg.Argilla, workspace: rg.Workspace):
    (tmp_path / "export").mkdir()
    source, path = exported(client, workspace, tmp_path)
    other = client.workspaces.add(rg.Workspace(name=unique("ws"), client=client))
    copy = rg.Dataset.from_disk(path, workspace=other.name, client=client)
    assert copy.name == source.name and copy.id != source.id
    assert copy.workspace.id == other.id
    assert len(list(copy.records)) == 6


def test_from_disk_with_an_existing_name_reuses_that_dataset(tmp_path, client: rg.Argilla, workspace: rg.Workspace):
    (tmp_path / "export").mkdir()
    source, path = exported(client, workspace, tmp_path)
    # The SDK looks the name up first and logs the records into the dataset it finds: the same records, by external id.
    with pytest.warns(UserWarning, match="already exists"):
        same = rg.Dataset.from_disk(path, name=source.name, workspace=workspace.name, client=client)
    assert same.id == source.id
    assert [r.id for r in same.records] == [f"rec-{i}" for i in range(6)]


def test_from_disk_without_records(tmp_path, client: rg.Argilla, workspace: rg.Workspace):
    (tmp_path / "export").mkdir()
    _, path = exported(client, workspace, tmp_path)
    copy = rg.Dataset.from_disk(path, name=unique("empty"), workspace=workspace.name, client=client, with_records=False)
    assert list(copy.records) == []
    assert copy.progress()["total"] == 0
