"""Users and workspaces through the SDK: the collections, lookups by name and id, membership, deletion."""

import uuid

import argilla as rg
import pytest

from conftest import API_KEY, API_URL, make_annotator, unique


def test_client_logs_in_and_knows_me(client: rg.Argilla):
    me = client.me
    assert me.role == "owner"
    assert me.username
    assert isinstance(me.id, uuid.UUID)


def test_wrong_key_is_a_credentials_error():
    with pytest.raises(rg._exceptions.ArgillaCredentialsError):
        rg.Argilla(api_url=API_URL, api_key="not-a-key", retries=0)


def test_workspace_create_list_lookup_delete(client: rg.Argilla):
    name = unique("ws")
    workspace = client.workspaces.add(rg.Workspace(name=name, client=client))
    assert isinstance(workspace.id, uuid.UUID)
    assert workspace.inserted_at is not None and workspace.updated_at is not None

    assert name in [w.name for w in client.workspaces.list()]
    assert name in [w.name for w in client.workspaces]
    assert len(client.workspaces) >= 1
    assert client.workspaces[0].id is not None
    assert client.workspaces(name).id == workspace.id
    assert client.workspaces(id=workspace.id).name == name
    assert client.workspaces(id=str(workspace.id)).name == name
    assert client.workspaces.default is not None
    assert workspace.datasets == []
    assert workspace.list_datasets() == []

    workspace.delete()
    with pytest.warns(UserWarning):
        assert client.workspaces(name) is None
    with pytest.warns(UserWarning):
        assert client.workspaces(id=workspace.id) is None


def test_workspace_create_ignores_a_client_chosen_id(client: rg.Argilla):
    taken = client.workspaces.add(rg.Workspace(name=unique("ws"), client=client))
    # The SDK sends the id it was given; Argilla's create schema has no id, so the server issues its own.
    second = rg.Workspace(name=unique("ws"), id=taken.id, client=client).create()
    assert second.id != taken.id
    assert client.workspaces(id=taken.id).name == taken.name


def test_user_create_list_lookup_update_delete(client: rg.Argilla, workspace: rg.Workspace):
    username = unique("user")
    user = client.users.add(
        rg.User(username=username, first_name="Ada", last_name="Lovelace", role="admin", password="s3cret-password", client=client)
    )
    assert isinstance(user.id, uuid.UUID)
    assert user.role == "admin"
    assert user.first_name == "Ada" and user.last_name == "Lovelace"

    assert username in [u.username for u in client.users.list()]
    assert username in [u.username for u in client.users]
    assert len(client.users) >= 2
    assert client.users(username).id == user.id
    assert client.users(id=user.id).username == username
    assert client.users(id=str(user.id)).username == username

    user.first_name = "Grace"
    user.last_name = "Hopper"
    user.role = "annotator"
    user.update()
    fetched = client.users(id=user.id)
    assert (fetched.first_name, fetched.last_name, fetched.role) == ("Grace", "Hopper", "annotator")

    user.delete()
    with pytest.warns(UserWarning):
        assert client.users(username) is None


def test_user_create_ignores_a_client_chosen_id(client: rg.Argilla):
    chosen = uuid.uuid4()
    user = rg.User(username=unique("user"), password="s3cret-password", id=chosen, client=client).create()
    assert user.id != chosen
    assert client.users(id=user.id).username == user.username


def test_user_first_name_defaults_to_username(client: rg.Argilla):
    user = rg.User(username=unique("plain"), password="s3cret-password", client=client).create()
    assert user.first_name == user.username
    assert user.role == "annotator"


def test_workspace_membership(client: rg.Argilla):
    workspace = client.workspaces.add(rg.Workspace(name=unique("ws"), client=client))
    user = client.users.add(rg.User(username=unique("member"), password="s3cret-password", client=client))
    other = client.users.add(rg.User(username=unique("member"), password="s3cret-password", client=client))

    user.add_to_workspace(workspace)
    workspace.add_user(other.username)
    members = {u.username for u in workspace.users}
    assert {user.username, other.username} <= members
    assert len(workspace.users) == len(members)
    assert workspace.users[0].username in members
    assert {u.username for u in client.users.list(workspace=workspace)} == members

    user.remove_from_workspace(workspace)
    workspace.remove_user(other.username)
    members = {u.username for u in workspace.users}
    assert user.username not in members and other.username not in members

    with pytest.raises(ValueError):
        workspace.add_user(unique("nobody"))


def test_annotator_sees_only_its_workspaces(client: rg.Argilla):
    mine = client.workspaces.add(rg.Workspace(name=unique("ws"), client=client))
    client.workspaces.add(rg.Workspace(name=unique("ws"), client=client))
    user, own = make_annotator(client, mine)
    assert own.me.username == user.username
    assert own.me.role == "annotator"
    assert [w.name for w in own.workspaces] == [mine.name]
    assert own.workspaces.default.name == mine.name


def test_a_users_workspaces_and_datasets_add(client: rg.Argilla):
    workspace = client.workspaces.add(rg.Workspace(name=unique("ws"), client=client))
    user = client.users.add(rg.User(username=unique("member"), password="s3cret-password", client=client))
    user.add_to_workspace(workspace)
    assert [w.name for w in client.api.workspaces.list_by_user_id(user.id)] == [workspace.name]
    assert client.api.workspaces.get_by_name(workspace.name).id == workspace.id

    dataset = client.datasets.add(
        rg.Dataset(
            name=unique("ds"),
            workspace=workspace,
            settings=rg.Settings(fields=[rg.TextField(name="text")], questions=[rg.TextQuestion(name="q")]),
            client=client,
        )
    )
    assert dataset.id is not None
    assert [d.name for d in workspace.list_datasets()] == [dataset.name]
    with pytest.raises(rg._exceptions.ConflictError):
        workspace.delete()


def test_client_from_the_environment(monkeypatch):
    # ARGILLA_API_URL and ARGILLA_API_KEY are the SDK's defaults when a client is made without arguments.
    monkeypatch.setenv("ARGILLA_API_URL", API_URL)
    monkeypatch.setenv("ARGILLA_API_KEY", API_KEY)
    assert rg.Argilla().me.role == "owner"


def test_admin_runs_its_workspace(client: rg.Argilla):
    from conftest import make_dataset

    workspace = client.workspaces.add(rg.Workspace(name=unique("ws"), client=client))
    user, admin = make_annotator(client, workspace, role="admin")
    assert admin.me.role == "admin"
    rg.Argilla._set_default(admin)
    try:
        dataset = make_dataset(admin, workspace, records=3)
        assert [d.name for d in admin.datasets] == [dataset.name]
        assert [r.id for r in dataset.records(query="Story")] == ["rec-0", "rec-1", "rec-2"]
        records = list(dataset.records)
        records[0].responses.add(rg.Response("label", "positive", user_id=user.id, status="submitted"))
        dataset.records.log(records[:1])
        assert dataset.progress(with_users_distribution=True)["users"][user.username]["completed"]["submitted"] == 1
        assert user.username in [u.username for u in workspace.users]
        dataset.settings.guidelines = "An admin's guidelines"
        dataset.update()
        dataset.records.delete(records[1:])
        assert [r.id for r in dataset.records] == ["rec-0"]
        # Users and webhooks are the owner's.
        with pytest.raises(rg._exceptions.ForbiddenError):
            admin.users.list()
        with pytest.raises(rg._exceptions.ForbiddenError):
            admin.webhooks.list()
        dataset.delete()
    finally:
        rg.Argilla._set_default(client)
