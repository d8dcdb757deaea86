"""Responses, suggestions, record status and progress through the SDK, as the owner and as an annotator."""

import time

import argilla as rg
import pytest
from argilla._models import UserResponseModel

from conftest import make_annotator, make_dataset, unique


def by_id(dataset: rg.Dataset) -> dict:
    return {r.id: r for r in dataset.records}


def wait_for(check, seconds: float = 20.0):
    """Polls `check` until it returns a truthy value: record statuses after a distribution change are recomputed by a
    background job, on Argilla as here."""
    deadline = time.monotonic() + seconds
    while True:
        value = check()
        if value or time.monotonic() > deadline:
            return value
        time.sleep(0.2)


def test_owner_logs_submitted_draft_and_discarded_responses(client: rg.Argilla, workspace: rg.Workspace):
    dataset = make_dataset(client, workspace, records=4)
    me = client.me
    records = list(dataset.records)
    records[0].responses.add(rg.Response("label", "positive", user_id=me.id, status="submitted"))
    records[0].responses.add(rg.Response("rating", 3, user_id=me.id, status="submitted"))
    records[1].responses.add(rg.Response("label", "negative", user_id=me.id, status="draft"))
    # A discarded response needs no value.
    records[2].responses.add(rg.Response("label", None, user_id=me.id, status="discarded"))
    dataset.records.log(records[:3])

    stored = by_id(dataset)
    first = stored["rec-0"].responses
    assert (first["label"][0].value, first["label"][0].status) == ("positive", "submitted")
    assert first["rating"][0].value == 3 and first["rating"][0].user_id == me.id
    assert stored["rec-0"].status == "completed"
    assert (stored["rec-1"].responses["label"][0].value, stored["rec-1"].responses["label"][0].status) == ("negative", "draft")
    assert stored["rec-1"].status == "pending"
    assert len(stored["rec-2"].responses) == 0  # the SDK lists answers by question: a discarded one has none
    assert stored["rec-2"].status == "pending"
    assert len(stored["rec-3"].responses) == 0

    # A draft turned into a submission: the same user's response is updated, not added.
    draft = stored["rec-1"]
    draft.responses["label"][0].status = "submitted"
    rebuilt = rg.Record(id=draft.id, fields={"text": draft.fields["text"]}, responses=[rg.Response("label", "negative", user_id=me.id, status="submitted")])
    dataset.records.log([rebuilt])
    again = by_id(dataset)["rec-1"]
    assert [(r.value, r.status) for r in again.responses["label"]] == [("negative", "submitted")]
    assert again.status == "completed"

    # Filters on response status see all three kinds.
    def status_of(status):
        return sorted(r.id for r in dataset.records(query=rg.Query(filter=rg.Filter(("response.status", "==", status)))))

    assert status_of("submitted") == ["rec-0", "rec-1"]
    assert status_of("discarded") == ["rec-2"]
    assert status_of("draft") == []


def test_responses_to_dict_and_serialize(client: rg.Argilla, workspace: rg.Workspace):
    dataset = make_dataset(client, workspace)
    me = client.me
    dataset.records.log([
        rg.Record(id="r", fields={"text": "t"}, responses=[
            rg.Response("label", "neutral", user_id=me.id, status="submitted"),
            rg.Response("topics", ["sport", "music"], user_id=me.id, status="submitted"),
        ]),
    ])
    (record,) = list(dataset.records)
    expected = {"label": [{"value": "neutral", "user_id": str(me.id)}], "topics": [{"value": ["sport", "music"], "user_id": str(me.id)}]}
    assert record.responses.to_dict() == expected
    (response,) = record.responses["topics"]
    assert response.serialize() == {"question_name": "topics", "value": ["sport", "music"], "user_id": me.id, "status": "submitted"}
    assert response.record.id == "r"
    assert record.to_dict()["responses"] == expected


def test_annotator_answers_through_the_records_api(client: rg.Argilla, workspace: rg.Workspace):
    ws = client.workspaces.add(rg.Workspace(name=unique("ws"), client=client))
    dataset = make_dataset(client, ws, records=3)
    annotator, own = make_annotator(client, ws)
    records = list(dataset.records)

    # The SDK's own call for one user's answer to one record (POST /records/{id}/responses): the annotator's client.
    own.api.records.create_record_response(
        record_id=records[0]._server_id,
        user_response=UserResponseModel(values={"label": {"value": "neutral"}}, status="submitted", user_id=annotator.id),
    )
    own.api.records.create_record_response(
        record_id=records[1]._server_id,
        user_response=UserResponseModel(values={"label": {"value": "positive"}}, status="draft", user_id=annotator.id),
    )
    own.api.records.create_record_response(
        record_id=records[2]._server_id,
        user_response=UserResponseModel(values={}, status="discarded", user_id=annotator.id),
    )
    # A second answer of the same user to the same record is a conflict.
    with pytest.raises(rg._exceptions.ConflictError):
        own.api.records.create_record_response(
            record_id=records[0]._server_id,
            user_response=UserResponseModel(values={"label": {"value": "neutral"}}, status="submitted", user_id=annotator.id),
        )

    stored = by_id(dataset)
    answer = stored["rec-0"].responses["label"][0]
    assert (answer.value, answer.status, answer.user_id) == ("neutral", "submitted", annotator.id)
    assert stored["rec-0"].status == "completed"
    assert stored["rec-1"].responses["label"][0].status == "draft"

    # The annotator reads a record by id, and cannot list or write the dataset's records (403 → ForbiddenError).
    mine = own.datasets(id=dataset.id)
    assert mine.name == dataset.name
    assert own.api.records.get(records[0]._server_id).external_id == "rec-0"
    with pytest.raises(rg._exceptions.ForbiddenError):
        list(mine.records)
    with pytest.raises(rg._exceptions.ForbiddenError):
        mine.records.log([{"id": "new", "text": "not allowed"}])

    progress = dataset.progress(with_users_distribution=True)
    assert progress["users"][annotator.username] == {
        "completed": {"submitted": 1, "draft": 0, "discarded": 0},
        "pending": {"submitted": 0, "draft": 1, "discarded": 1},
    }
    # An annotator sees the dataset's progress too.
    assert mine.progress() == {"total": 3, "completed": 1, "pending": 2}


def test_owner_logs_responses_for_another_user(client: rg.Argilla, workspace: rg.Workspace):
    ws = client.workspaces.add(rg.Workspace(name=unique("ws"), client=client))
    dataset = make_dataset(client, ws)
    annotator, _ = make_annotator(client, ws)
    me = client.me
    dataset.records.log([
        rg.Record(
            id="both",
            fields={"text": "two answers"},
            responses=[
                rg.Response("label", "positive", user_id=me.id, status="submitted"),
                rg.Response("label", "negative", user_id=annotator.id, status="submitted"),
            ],
        )
    ])
    (record,) = list(dataset.records)
    answers = {r.user_id: r.value for r in record.responses["label"]}
    assert answers == {me.id: "positive", annotator.id: "negative"}
    # The SDK's own guard: one response per user and question.
    with pytest.raises(rg._exceptions.ArgillaError):
        record.responses.add(rg.Response("label", "neutral", user_id=me.id))
    # `user_id=` on log makes mapped answers that user's.
    dataset.records.log([{"id": "mapped", "text": "t", "label": "neutral"}], mapping={"label": "label.response"}, user_id=annotator.id)
    mapped = by_id(dataset)["mapped"]
    assert [(r.user_id, r.value) for r in mapped.responses["label"]] == [(annotator.id, "neutral")]


def test_suggestions_added_updated_and_deleted(client: rg.Argilla, workspace: rg.Workspace):
    dataset = make_dataset(client, workspace, records=2)
    records = list(dataset.records)
    records[0].suggestions.add(rg.Suggestion("label", "positive", score=0.4, agent="model-a"))
    records[0].suggestions.add(rg.Suggestion("topics", ["sport"], score=[0.9], agent="model-a"))
    dataset.records.log(records)
    stored = by_id(dataset)["rec-0"]
    assert stored.suggestions["label"].value == "positive"
    assert stored.suggestions["topics"].value == ["sport"]
    assert stored.suggestions.to_dict()["label"] == {"value": "positive", "score": pytest.approx(0.4), "agent": "model-a"}
    assert stored.suggestions["label"].record.id == "rec-0"
    assert len(by_id(dataset)["rec-1"].suggestions) == 0

    # A new suggestion for the same question replaces the old one (one suggestion per question).
    stored.suggestions.add(rg.Suggestion("label", "negative", score=0.8, agent="model-b", type="model"))
    dataset.records.log([stored])
    updated = by_id(dataset)["rec-0"]
    assert len(updated.suggestions) == 2
    assert (updated.suggestions["label"].value, updated.suggestions["label"].agent) == ("negative", "model-b")
    assert updated.suggestions["label"].score == pytest.approx(0.8)
    assert updated.suggestions["label"].type == "model"

    # The SDK's high-level API has no call that deletes a suggestion (a log without it keeps it) ...
    dataset.records.log([rg.Record(id="rec-0", fields={"text": "Story 0 about sport"}, suggestions=[])])
    assert len(by_id(dataset)["rec-0"].suggestions) == 2
    # ... its HTTP client reaches the API's DELETE /suggestions/{id} ...
    suggestions = client.http_client.get(f"/api/v1/records/{updated._server_id}/suggestions").raise_for_status().json()["items"]
    label = next(s for s in suggestions if s["value"] == "negative")
    client.http_client.delete(f"/api/v1/suggestions/{label['id']}").raise_for_status()
    remaining = by_id(dataset)["rec-0"]
    assert [s.question_name for s in remaining.suggestions] == ["topics"]
    # ... and its record update (PATCH /records/{id}, which sends the whole record) replaces all suggestions.
    model = remaining.api_model()
    model.suggestions = []
    client.api.records.update(model)
    assert len(by_id(dataset)["rec-0"].suggestions) == 0


def test_suggestion_validation_errors(client: rg.Argilla, workspace: rg.Workspace):
    dataset = make_dataset(client, workspace)
    with pytest.raises(rg._exceptions.UnprocessableEntityError):
        dataset.records.log([rg.Record(id="x", fields={"text": "t"}, suggestions=[rg.Suggestion("label", "not-a-label")])])
    with pytest.raises(rg._exceptions.UnprocessableEntityError):
        dataset.records.log([rg.Record(id="y", fields={"text": "t"}, responses=[rg.Response("rating", 9, user_id=client.me.id, status="submitted")])])
    assert list(dataset.records) == []


def test_progress_and_users_distribution(client: rg.Argilla, workspace: rg.Workspace):
    dataset = make_dataset(client, workspace, records=5)
    assert dataset.progress() == {"total": 5, "completed": 0, "pending": 5}
    me = client.me
    records = list(dataset.records)
    for record in records[:2]:
        record.responses.add(rg.Response("label", "positive", user_id=me.id, status="submitted"))
    records[2].responses.add(rg.Response("label", "positive", user_id=me.id, status="draft"))
    dataset.records.log(records[:3])

    assert dataset.progress() == {"total": 5, "completed": 2, "pending": 3}
    with_users = dataset.progress(with_users_distribution=True)
    assert with_users["total"] == 5
    assert with_users["users"] == {
        me.username: {
            "completed": {"submitted": 2, "draft": 0, "discarded": 0},
            "pending": {"submitted": 0, "draft": 1, "discarded": 0},
        }
    }


def test_distribution_change_recomputes_record_status(client: rg.Argilla, workspace: rg.Workspace):
    ws = client.workspaces.add(rg.Workspace(name=unique("ws"), client=client))
    dataset = make_dataset(client, ws, records=2)
    annotator, _ = make_annotator(client, ws)
    me = client.me
    records = list(dataset.records)
    records[0].responses.add(rg.Response("label", "positive", user_id=me.id, status="submitted"))
    records[1].responses.add(rg.Response("label", "positive", user_id=me.id, status="submitted"))
    records[1].responses.add(rg.Response("label", "negative", user_id=annotator.id, status="submitted"))
    dataset.records.log(records)
    assert {r.id: r.status for r in dataset.records} == {"rec-0": "completed", "rec-1": "completed"}

    dataset.settings.distribution = rg.TaskDistribution(min_submitted=2)
    dataset.update()
    assert client.datasets(id=dataset.id).get().distribution.min_submitted == 2
    statuses = wait_for(lambda: (s := {r.id: r.status for r in dataset.records}) == {"rec-0": "pending", "rec-1": "completed"} and s)
    assert statuses == {"rec-0": "pending", "rec-1": "completed"}
    assert dataset.progress() == {"total": 2, "completed": 1, "pending": 1}

    dataset.distribution = rg.TaskDistribution(min_submitted=1)
    dataset.update()
    assert wait_for(lambda: dataset.progress()["completed"] == 2)
