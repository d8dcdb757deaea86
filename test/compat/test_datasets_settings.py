"""Datasets and their settings through the SDK: every field, question, metadata and vector kind, updates, lookups."""

import argilla as rg
import pytest

from conftest import LABELS, TOPICS, make_dataset, unique


def fetch(client: rg.Argilla, dataset_id) -> rg.Dataset:
    """`client.datasets(id=…)` returns the dataset without its settings (the SDK does not read them): `get` does."""
    return client.datasets(id=dataset_id).get()


def test_create_publishes_every_setting_kind(client: rg.Argilla, workspace: rg.Workspace):
    dataset = make_dataset(client, workspace)
    assert dataset.id is not None
    assert dataset._model.status == "ready"
    assert dataset.workspace.id == workspace.id

    fetched = client.datasets(name=dataset.name, workspace=workspace)
    assert fetched.id == dataset.id
    settings = fetched.settings
    assert settings.guidelines == "Label the sentiment of the text."
    assert settings.distribution.min_submitted == 1

    fields = {f.name: f for f in settings.fields}
    assert [f.name for f in settings.fields] == ["text", "image", "chat", "custom"]
    assert isinstance(fields["text"], rg.TextField) and fields["text"].use_markdown is False
    assert fields["text"].required is True and fields["text"].title == "Text"
    assert isinstance(fields["image"], rg.ImageField) and fields["image"].required is False
    assert isinstance(fields["chat"], rg.ChatField)
    assert isinstance(fields["custom"], rg.CustomField)
    assert fields["custom"].template == "<p>{{record.fields.custom.key}}</p>"

    questions = {q.name: q for q in settings.questions}
    assert list(questions) == ["label", "topics", "rating", "ranking", "comment", "entities"]
    assert isinstance(questions["label"], rg.LabelQuestion) and questions["label"].labels == LABELS
    assert isinstance(questions["topics"], rg.MultiLabelQuestion) and questions["topics"].labels == TOPICS
    assert questions["topics"].visible_labels == 3
    assert isinstance(questions["rating"], rg.RatingQuestion) and questions["rating"].values == [1, 2, 3, 4, 5]
    assert isinstance(questions["ranking"], rg.RankingQuestion) and questions["ranking"].values == ["a", "b", "c"]
    assert isinstance(questions["comment"], rg.TextQuestion) and questions["comment"].use_markdown is True
    assert isinstance(questions["entities"], rg.SpanQuestion)
    assert questions["entities"].field == "text" and questions["entities"].labels == ["PER", "ORG", "LOC"]

    metadata = {m.name: m for m in settings.metadata}
    assert isinstance(metadata["topic"], rg.TermsMetadataProperty) and metadata["topic"].options == TOPICS
    assert isinstance(metadata["rank"], rg.IntegerMetadataProperty)
    assert (metadata["rank"].min, metadata["rank"].max) == (0, 1000)
    assert isinstance(metadata["score"], rg.FloatMetadataProperty)
    assert (metadata["score"].min, metadata["score"].max) == (0.0, 1.0)

    (vector,) = settings.vectors
    assert isinstance(vector, rg.VectorField) and (vector.name, vector.dimensions) == ("emb", 3)
    assert set(fetched.schema) == set(fields) | set(questions) | set(metadata) | {"emb"}


def test_dataset_lookups_and_listing(client: rg.Argilla, workspace: rg.Workspace):
    dataset = make_dataset(client, workspace)
    assert client.datasets(id=dataset.id).name == dataset.name
    assert client.datasets(id=str(dataset.id)).name == dataset.name
    assert client.datasets(dataset.name, workspace=workspace.name).id == dataset.id
    assert dataset.name in [d.name for d in client.datasets]
    assert dataset.name in [d.name for d in client.datasets.list()]
    assert len(client.datasets) >= 1
    assert client.datasets[0].id is not None
    assert dataset.name in [d.name for d in workspace.datasets]
    with pytest.warns(UserWarning):
        assert client.datasets(unique("missing"), workspace=workspace) is None


def test_settings_update_after_publishing(client: rg.Argilla, workspace: rg.Workspace):
    dataset = make_dataset(client, workspace)
    dataset.settings.guidelines = "New guidelines"
    dataset.settings.allow_extra_metadata = True
    dataset.settings.distribution = rg.TaskDistribution(min_submitted=2)
    dataset.settings.fields["text"].title = "The text"
    dataset.settings.fields["text"].use_markdown = True
    dataset.settings.questions["label"].title = "Feeling"
    dataset.settings.questions["label"].description = "How does it feel?"
    dataset.settings.questions["label"].labels = ["positive", "negative", "neutral"]
    dataset.settings.questions["label"].visible_labels = 3
    dataset.settings.metadata["topic"].title = "The topic"
    dataset.settings.metadata["topic"].visible_for_annotators = False
    dataset.settings.vectors["emb"].title = "Embedding"
    # New metadata and vectors may be added to a published dataset.
    dataset.settings.metadata.add(rg.TermsMetadataProperty(name="source"))
    dataset.settings.vectors.add(rg.VectorField(name="emb2", dimensions=2))
    dataset.update()

    fetched = fetch(client, dataset.id)
    assert fetched.settings.guidelines == "New guidelines"
    assert fetched.settings.allow_extra_metadata is True
    assert fetched.settings.distribution.min_submitted == 2
    assert fetched.settings.fields["text"].title == "The text"
    assert fetched.settings.fields["text"].use_markdown is True
    assert fetched.settings.questions["label"].title == "Feeling"
    assert fetched.settings.questions["label"].description == "How does it feel?"
    assert fetched.settings.metadata["topic"].title == "The topic"
    assert fetched.settings.metadata["topic"].visible_for_annotators is False
    assert fetched.settings.vectors["emb"].title == "Embedding"
    assert {m.name for m in fetched.settings.metadata} == {"topic", "rank", "score", "source"}
    assert {v.name for v in fetched.settings.vectors} == {"emb", "emb2"}

    # Removing a metadata property and a vector deletes them on the server.
    dataset.settings.metadata.remove("source")
    dataset.settings.vectors.remove("emb2")
    dataset.update()
    fetched = fetch(client, dataset.id)
    assert {m.name for m in fetched.settings.metadata} == {"topic", "rank", "score"}
    assert {v.name for v in fetched.settings.vectors} == {"emb"}


def test_settings_add_with_override(client: rg.Argilla, workspace: rg.Workspace):
    settings = rg.Settings(fields=[rg.TextField(name="text")], questions=[rg.TextQuestion(name="answer")])
    settings.add(rg.LabelQuestion(name="label", labels=["a", "b"]))
    settings.add(rg.IntegerMetadataProperty(name="n"))
    settings.add(rg.VectorField(name="v", dimensions=2))
    dataset = rg.Dataset(name=unique("ds"), workspace=workspace, settings=settings, client=client).create()
    fetched = fetch(client, dataset.id)
    assert [q.name for q in fetched.settings.questions] == ["answer", "label"]
    assert [m.name for m in fetched.settings.metadata] == ["n"]
    assert [v.name for v in fetched.settings.vectors] == ["v"]


def test_dataset_rename_and_delete(client: rg.Argilla, workspace: rg.Workspace):
    dataset = make_dataset(client, workspace)
    dataset.name = unique("renamed")
    dataset.settings.update()
    assert client.datasets(id=dataset.id).name == dataset.name
    dataset.delete()
    assert not client.api.datasets.exists(dataset.id)
    with pytest.warns(UserWarning):
        assert client.datasets(id=dataset.id) is None


def test_invalid_settings_roll_back_the_dataset(client: rg.Argilla, workspace: rg.Workspace):
    # A span question on a field that does not exist: the server refuses it, the SDK deletes the draft it made.
    settings = rg.Settings(
        fields=[rg.TextField(name="text")],
        questions=[rg.SpanQuestion(name="spans", field="nope", labels=["A"])],
    )
    name = unique("ds")
    with pytest.raises(rg._exceptions.SettingsError):
        rg.Dataset(name=name, workspace=workspace, settings=settings, client=client).create()
    assert not client.api.datasets.name_exists(name=name, workspace_id=workspace.id)


def test_settings_to_and_from_json(tmp_path, client: rg.Argilla, workspace: rg.Workspace):
    dataset = make_dataset(client, workspace)
    path = tmp_path / "settings.json"
    dataset.settings.to_json(path)
    loaded = rg.Settings.from_json(path)
    assert [f.name for f in loaded.fields] == ["text", "image", "chat", "custom"]
    assert [q.name for q in loaded.questions] == ["label", "topics", "rating", "ranking", "comment", "entities"]
    copy = rg.Dataset(name=unique("copy"), workspace=workspace, settings=loaded, client=client).create()
    assert copy.id != dataset.id
    assert fetch(client, copy.id).settings.questions["entities"].field == "text"


def test_dataset_settings_of_another_dataset_make_a_new_one(client: rg.Argilla, workspace: rg.Workspace):
    # Settings carry the ids of the dataset they were read from; the SDK sends them along when creating.
    source = make_dataset(client, workspace)
    copy = rg.Dataset(name=unique("copy"), workspace=workspace, settings=source.settings, client=client).create()
    assert copy.id != source.id
    assert {f.id for f in copy.settings.fields}.isdisjoint({f.id for f in source.settings.fields})
    assert fetch(client, source.id).settings.fields["text"].dataset.id == source.id


def test_published_datasets_keep_their_fields_and_questions(client: rg.Argilla, workspace: rg.Workspace):
    # Argilla's rules (and ours): no field or question is added to or removed from a published dataset, and label
    # options keep their values; the SDK reports each refusal (a 422) as a SettingsError.
    changes = [
        lambda s: s.fields.add(rg.TextField(name="late", required=False)),
        lambda s: s.questions.add(rg.TextQuestion(name="late", required=False)),
        lambda s: s.fields.remove("custom"),
        lambda s: s.questions.remove("comment"),
        lambda s: setattr(s.questions["label"], "labels", LABELS + ["mixed"]),
    ]
    for change in changes:
        dataset = make_dataset(client, workspace)
        change(dataset.settings)
        with pytest.raises(rg._exceptions.SettingsError):
            dataset.update()
        fetched = fetch(client, dataset.id).settings
        assert [f.name for f in fetched.fields] == ["text", "image", "chat", "custom"]
        assert [q.name for q in fetched.questions] == ["label", "topics", "rating", "ranking", "comment", "entities"]
        assert fetched.questions["label"].labels == LABELS

    # The same labels in another order, and guidelines removed, are fine.
    dataset = make_dataset(client, workspace)
    dataset.settings.questions["label"].labels = list(reversed(LABELS))
    dataset.settings.guidelines = None
    dataset.update()
    fetched = fetch(client, dataset.id).settings
    assert fetched.questions["label"].labels == list(reversed(LABELS))
    assert fetched.guidelines is None
