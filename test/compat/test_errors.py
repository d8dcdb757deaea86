"""Error mapping: the SDK turns each status into its own exception (argilla/_exceptions/_api.py), so the statuses a
user sees for the usual mistakes must be Argilla's: 401, 403, 404, 409 and 422. Also deletes of users, workspaces,
datasets and records, and what they leave behind."""

import uuid

import argilla as rg
import pytest

from conftest import API_URL, make_annotator, make_dataset, unique

errors = rg._exceptions


def test_404_is_not_found(client: rg.Argilla, workspace: rg.Workspace):
    missing = uuid.uuid4()
    for call in (
        lambda: client.api.datasets.get(missing),
        lambda: client.api.workspaces.get(missing),
        lambda: client.api.users.get(missing),
        lambda: client.api.records.get(missing),
        lambda: client.api.records.delete(missing),
        lambda: client.api.webhooks.delete(str(missing)),
        lambda: client.api.datasets.get_progress(missing),
    ):
        with pytest.raises(errors.NotFoundError) as raised:
            call()
        assert raised.value.status_code == 404
    # The collections answer None (with a warning) instead.
    with pytest.warns(UserWarning):
        assert client.datasets(id=missing) is None
    with pytest.warns(UserWarning):
        assert client.users(id=missing) is None


def test_409_is_a_conflict(client: rg.Argilla, workspace: rg.Workspace):
    taken = client.users.add(rg.User(username=unique("user"), password="s3cret-password", client=client))
    with pytest.raises(errors.ConflictError) as raised:
        client.users.add(rg.User(username=taken.username, password="s3cret-password", client=client))
    assert raised.value.status_code == 409

    with pytest.raises(errors.ConflictError):
        client.workspaces.add(rg.Workspace(name=workspace.name, client=client))

    dataset = make_dataset(client, workspace)
    with pytest.raises(errors.ConflictError):
        rg.Dataset(name=dataset.name, workspace=workspace, settings=dataset.settings, client=client).create()

    # A workspace that still has datasets cannot be deleted.
    ws = client.workspaces.add(rg.Workspace(name=unique("ws"), client=client))
    held = make_dataset(client, ws)
    with pytest.raises(errors.ConflictError):
        ws.delete()
    held.delete()
    ws.delete()
    with pytest.warns(UserWarning):
        assert client.workspaces(id=ws.id) is None


def test_422_is_unprocessable(client: rg.Argilla, workspace: rg.Workspace):
    with pytest.raises(errors.UnprocessableEntityError) as raised:
        client.users.add(rg.User(username=unique("user"), password="short", client=client))
    assert raised.value.status_code == 422
    dataset = make_dataset(client, workspace)
    with pytest.raises(errors.UnprocessableEntityError):
        dataset.records.log([{"id": "a", "text": "ok", "rank": "not a number"}])
    # A question the dataset does not have, in a similarity query on a vector it does not have.
    with pytest.raises(errors.UnprocessableEntityError):
        list(dataset.records(query=rg.Query(filter=rg.Filter(("metadata.nope", "==", "x")))))


def test_401_after_the_key_stops_working(client: rg.Argilla, workspace: rg.Workspace):
    with pytest.raises(errors.ArgillaCredentialsError):
        rg.Argilla(api_url=API_URL, api_key="not-a-key", retries=0)
    user, own = make_annotator(client, workspace)
    assert own.me.username == user.username
    user.delete()
    # The client logged in before: the server refuses its key now.
    with pytest.raises(errors.UnauthorizedError) as raised:
        own.api.users.get_me()
    assert raised.value.status_code == 401
    with pytest.raises(errors.ArgillaCredentialsError):
        rg.Argilla(api_url=API_URL, api_key=own.api_key, retries=0)
    rg.Argilla._set_default(client)


def test_403_is_forbidden(client: rg.Argilla, workspace: rg.Workspace):
    _, own = make_annotator(client, workspace)
    with pytest.raises(errors.ForbiddenError) as raised:
        own.users.add(rg.User(username=unique("user"), password="s3cret-password", client=own))
    assert raised.value.status_code == 403
    with pytest.raises(errors.ForbiddenError):
        own.workspaces.add(rg.Workspace(name=unique("ws"), client=own))
    # Dataset.create re-raises a 403 with its own message naming the user, role and workspace.
    with pytest.raises(errors.ForbiddenError, match="not authorized to create a dataset"):
        rg.Dataset(name=unique("ds"), workspace=workspace.name, settings=rg.Settings(fields=[rg.TextField(name="text")], questions=[rg.TextQuestion(name="q")]), client=own).create()
    dataset = make_dataset(client, workspace)
    with pytest.raises(errors.ForbiddenError):
        own.datasets(id=dataset.id).delete()
    assert client.api.datasets.exists(dataset.id)
    # An admin outside the workspace cannot see it.
    other_ws = client.workspaces.add(rg.Workspace(name=unique("ws"), client=client))
    _, admin = make_annotator(client, other_ws, role="admin")
    with pytest.raises(errors.ForbiddenError):
        admin.api.datasets.get(dataset.id)
    rg.Argilla._set_default(client)


def test_deletes(client: rg.Argilla, workspace: rg.Workspace):
    dataset = make_dataset(client, workspace, records=4)
    records = list(dataset.records)
    client.api.records.delete(records[0]._server_id)
    dataset.records.delete([records[1]])
    assert [r.id for r in dataset.records] == ["rec-2", "rec-3"]
    assert dataset.progress()["total"] == 2

    user = client.users.add(rg.User(username=unique("gone"), password="s3cret-password", client=client))
    user.add_to_workspace(workspace)
    user_id = user.id
    user.delete()
    assert user_id not in [u.id for u in workspace.users]
    with pytest.raises(errors.NotFoundError):
        client.api.users.delete(user_id)

    ws = client.workspaces.add(rg.Workspace(name=unique("ws"), client=client))
    ws.delete()
    with pytest.raises(errors.NotFoundError):
        client.api.workspaces.delete(ws.id)

    dataset.delete()
    with pytest.raises(errors.NotFoundError):
        client.api.datasets.delete(dataset.id)


def test_me_and_dataset_update(client: rg.Argilla, workspace: rg.Workspace):
    me = client.me
    assert (me.role, me.username) == ("owner", client.api.users.get_me().username)
    dataset = make_dataset(client, workspace)
    dataset.name = unique("renamed")
    dataset.guidelines = "Updated through Dataset.update"
    dataset.allow_extra_metadata = True
    dataset.update()
    fetched = client.datasets(id=dataset.id).get()
    assert fetched.name == dataset.name
    assert fetched.guidelines == "Updated through Dataset.update"
    assert fetched.allow_extra_metadata is True
    assert fetched.settings.distribution.min_submitted == 1
    # Extra metadata is kept once allowed (a flat dict's unknown keys are dropped by the SDK: a Record is needed).
    dataset.records.log([rg.Record(id="x", fields={"text": "t"}, metadata={"undeclared": "kept"})])
    (record,) = list(dataset.records)
    assert record.metadata["undeclared"] == "kept"
