"""
Shared fixtures of the Argilla SDK compatibility suite: the real `argilla` SDK (test/compat/requirements.txt)
against a running Gloss server named by ARGILLA_API_URL and ARGILLA_API_KEY (an owner's key). test/compat/sdk.test.ts
boots the server and runs this suite from `npm test`; by hand:

    ARGILLA_API_URL=http://127.0.0.1:6900 ARGILLA_API_KEY=<owner key> .venv/bin/python -m pytest test/compat -q

Every test makes its own workspace, users and datasets with unique names, so the suite runs on a server that has
other data and in any order.
"""

import os
import uuid
import warnings

import argilla as rg
import httpx
import pytest

API_URL = os.environ.get("ARGILLA_API_URL", "http://127.0.0.1:6900")
API_KEY = os.environ.get("ARGILLA_API_KEY", "")

# The SDK warns about things a test does on purpose (no workspace given, unknown keys); they are not failures.
warnings.filterwarnings("ignore", module="argilla")

LABELS = ["positive", "negative", "neutral"]
# A 1×1 PNG as a data URI: image fields without a URL, so nothing is ever fetched.
IMAGE = (
    "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="
)
TOPICS = ["sport", "music", "science"]


def unique(prefix: str) -> str:
    """A name no other test or run uses: names are lowercase, digits, `-` and `_`."""
    return f"{prefix}-{uuid.uuid4().hex[:10]}"


@pytest.fixture(scope="session")
def client() -> rg.Argilla:
    if not API_KEY:
        pytest.fail("ARGILLA_API_KEY is not set: it must be the key of an owner of the server at ARGILLA_API_URL")
    return rg.Argilla(api_url=API_URL, api_key=API_KEY, timeout=60, retries=1)


@pytest.fixture(autouse=True)
def owner_is_default(client: rg.Argilla) -> None:
    """Settings, records and resources built without `client=` use the SDK's default client: the owner's."""
    rg.Argilla._set_default(client)


@pytest.fixture(scope="session")
def workspace(client: rg.Argilla) -> rg.Workspace:
    return client.workspaces.add(rg.Workspace(name=unique("compat"), client=client))


def make_annotator(client: rg.Argilla, workspace: rg.Workspace, role: str = "annotator"):
    """A new user of `role` in `workspace`, and an SDK client logged in with their key."""
    password = "compat-password-1"
    user = client.users.add(rg.User(username=unique(role), password=password, role=role, client=client))
    user.add_to_workspace(workspace)
    # The SDK has no call that reads a key, and Gloss shows it to owners only in the answer to the create (which the
    # SDK's user model drops): as the user, sign in with the password and read it from `GET /me`.
    token = httpx.post(
        f"{API_URL}/api/v1/token", data={"username": user.username, "password": password}
    ).raise_for_status().json()["access_token"]
    api_key = httpx.get(
        f"{API_URL}/api/v1/me", headers={"Authorization": f"Bearer {token}"}
    ).raise_for_status().json()["api_key"]
    own = rg.Argilla(api_url=API_URL, api_key=api_key, retries=1)
    rg.Argilla._set_default(client)
    return user, own


@pytest.fixture(scope="session")
def annotator(client: rg.Argilla, workspace: rg.Workspace):
    return make_annotator(client, workspace)


def full_settings(min_submitted: int = 1) -> rg.Settings:
    """Every field kind, every question kind, the three metadata kinds and a vector."""
    return rg.Settings(
        guidelines="Label the sentiment of the text.",
        fields=[
            rg.TextField(name="text", title="Text", use_markdown=False),
            rg.ImageField(name="image", title="Image", required=False),
            rg.ChatField(name="chat", title="Chat", required=False),
            rg.CustomField(name="custom", title="Custom", template="<p>{{record.fields.custom.key}}</p>", required=False),
        ],
        questions=[
            rg.LabelQuestion(name="label", title="Sentiment", labels=LABELS),
            rg.MultiLabelQuestion(name="topics", labels=TOPICS, required=False, visible_labels=3),
            rg.RatingQuestion(name="rating", values=[1, 2, 3, 4, 5], required=False),
            rg.RankingQuestion(name="ranking", values=["a", "b", "c"], required=False),
            rg.TextQuestion(name="comment", use_markdown=True, required=False),
            rg.SpanQuestion(name="entities", field="text", labels=["PER", "ORG", "LOC"], required=False),
        ],
        metadata=[
            rg.TermsMetadataProperty(name="topic", options=TOPICS),
            rg.IntegerMetadataProperty(name="rank", min=0, max=1000),
            rg.FloatMetadataProperty(name="score", min=0.0, max=1.0),
        ],
        vectors=[rg.VectorField(name="emb", dimensions=3)],
        distribution=rg.TaskDistribution(min_submitted=min_submitted),
    )


def record_dict(i: int) -> dict:
    """Record `i` as a flat dictionary, the form `records.log` takes: field, metadata and vector names as keys."""
    topic = TOPICS[i % 3]
    axis = [0.0, 0.0, 0.0]
    axis[i % 3] = 1.0
    axis[(i + 1) % 3] = i / 1000
    return {
        "id": f"rec-{i}",
        "text": f"Story {i} about {topic}",
        "image": IMAGE,
        "chat": [{"role": "user", "content": f"question {i}"}, {"role": "assistant", "content": "answer"}],
        "custom": {"key": f"value {i}"},
        "topic": topic,
        "rank": i,
        "score": round((i % 10) / 10, 1),
        "emb": axis,
    }


def make_dataset(client: rg.Argilla, workspace: rg.Workspace, records: int = 0, **settings) -> rg.Dataset:
    """A published dataset with `full_settings` and `records` records logged (ids rec-0, rec-1, …)."""
    dataset = rg.Dataset(name=unique("ds"), workspace=workspace, settings=full_settings(**settings), client=client)
    dataset.create()
    if records > 0:
        dataset.records.log([record_dict(i) for i in range(records)])
    return dataset
