"""Webhooks through the SDK: `client.webhooks` add, list, update, delete and ping, and deliveries to a local receiver,
checked the way the SDK's `webhook_listener` checks them (Standard Webhooks signature with the webhook's secret, then
`WebhookEvent.parsed`). The listener itself needs FastAPI and uvicorn, which argilla 2.8.0 does not install, and it
serves on a fixed port; the receiver here is the standard library's HTTP server on a free port."""

import json
import queue
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import argilla as rg
import pytest
from argilla._models import UserResponseModel
from argilla.webhooks import DatasetEvent, RecordEvent, UserResponseEvent, WebhookEvent
from standardwebhooks.webhooks import Webhook as StandardWebhook

from conftest import make_dataset, unique


class Receiver:
    """Collects every POST it gets: (headers, body)."""

    def __init__(self):
        self.deliveries: "queue.Queue[tuple[dict, bytes]]" = queue.Queue()
        deliveries = self.deliveries

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("content-length", 0)))
                deliveries.put(({k.lower(): v for k, v in self.headers.items()}, body))
                self.send_response(200)
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hook"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def next(self, type_: str, seconds: float = 20.0) -> tuple:
        """The next delivery of an event of `type_` (others are dropped), as (headers, body)."""
        deadline = time.monotonic() + seconds
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                pytest.fail(f"no {type_} delivery within {seconds} s")
            try:
                headers, body = self.deliveries.get(timeout=left)
            except queue.Empty:
                continue
            if json.loads(body).get("type") == type_:
                return headers, body

    def close(self):
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def receiver():
    r = Receiver()
    yield r
    r.close()


@pytest.fixture
def webhooks(client: rg.Argilla):
    """Webhooks made by a test, deleted after it: a server keeps at most 10."""
    made = []
    yield made
    for webhook in made:
        try:
            webhook.delete()
        except rg._exceptions.NotFoundError:
            pass


def verified(webhook: rg.Webhook, headers: dict, body: bytes) -> WebhookEvent:
    """What `webhook_listener`'s handler does with a request: verify, then validate the event."""
    payload = StandardWebhook(whsecret=webhook.secret).verify(body, headers)
    return WebhookEvent.model_validate(payload)


def test_add_list_update_delete(client: rg.Argilla, webhooks: list):
    webhook = client.webhooks.add(rg.Webhook(url="https://example.com/hook", events=["record.created"], description="compat"))
    webhooks.append(webhook)
    assert webhook.id is not None
    assert webhook.secret and webhook.enabled is True
    assert webhook.events == ["record.created"] and webhook.description == "compat"
    assert str(webhook.id) in [str(w.id) for w in client.webhooks.list()]
    assert str(webhook.id) in [str(w.id) for w in client.webhooks]
    assert len(client.webhooks) >= 1
    assert client.webhooks[0].id is not None

    webhook.url = "https://example.com/other"
    webhook.events = ["record.created", "dataset.deleted"]
    webhook.description = "changed"
    webhook.enabled = False
    webhook.update()
    (listed,) = [w for w in client.webhooks.list() if w.id == webhook.id]
    assert listed.url == "https://example.com/other"
    assert listed.events == ["record.created", "dataset.deleted"]
    assert (listed.description, listed.enabled) == ("changed", False)
    assert listed.secret == webhook.secret

    webhook.delete()
    assert webhook.id not in [w.id for w in client.webhooks.list()]
    with pytest.raises(rg._exceptions.NotFoundError):
        webhook.delete()


def test_invalid_webhooks_are_refused(client: rg.Argilla, webhooks: list):
    with pytest.raises(rg._exceptions.UnprocessableEntityError):
        webhooks.append(client.webhooks.add(rg.Webhook(url="not a url", events=["record.created"])))
    with pytest.raises(rg._exceptions.UnprocessableEntityError):
        webhooks.append(client.webhooks.add(rg.Webhook(url="https://example.com/hook", events=[])))


def test_webhooks_are_for_owners(client: rg.Argilla, workspace: rg.Workspace, annotator):
    _, own = annotator
    with pytest.raises(rg._exceptions.ForbiddenError):
        own.webhooks.list()
    with pytest.raises(rg._exceptions.ForbiddenError):
        own.webhooks.add(rg.Webhook(url="https://example.com/hook", events=["record.created"], _client=own))
    rg.Argilla._set_default(client)


def test_deliveries_are_signed_and_parse_as_sdk_events(client: rg.Argilla, workspace: rg.Workspace, receiver: Receiver, webhooks: list):
    events = ["dataset.created", "dataset.published", "record.created", "record.updated", "response.created", "record.completed", "dataset.deleted"]
    webhook = client.webhooks.add(rg.Webhook(url=receiver.url, events=events, description=unique("hook")))
    webhooks.append(webhook)

    # A ping is signed like every delivery.
    client.api.webhooks.ping(webhook.id)
    headers, body = receiver.next("ping")
    assert StandardWebhook(whsecret=webhook.secret).verify(body, headers)["type"] == "ping"
    assert {"webhook-id", "webhook-timestamp", "webhook-signature"} <= set(headers)

    dataset = make_dataset(client, workspace)
    created = verified(webhook, *receiver.next("dataset.created"))
    assert created.data["id"] == str(dataset.id)
    published = verified(webhook, *receiver.next("dataset.published")).parsed(client)
    assert isinstance(published, DatasetEvent)
    assert published.dataset.id == dataset.id and published.dataset.name == dataset.name
    assert published.dataset.workspace.id == workspace.id

    dataset.records.log([{"id": "hooked", "text": "a record for a webhook"}])
    record_event = verified(webhook, *receiver.next("record.created")).parsed(client)
    assert isinstance(record_event, RecordEvent)
    assert record_event.record.id == "hooked"
    assert record_event.record.fields["text"] == "a record for a webhook"
    assert record_event.record.dataset.id == dataset.id

    # Responses logged with records are written in bulk without response events (on Argilla too); one user's answer
    # to one record (POST /records/{id}/responses) emits response.created, and the record's new status follows.
    (record,) = list(dataset.records)
    client.api.records.create_record_response(
        record_id=record._server_id,
        user_response=UserResponseModel(values={"label": {"value": "positive"}}, status="submitted", user_id=client.me.id),
    )
    response_event = verified(webhook, *receiver.next("response.created")).parsed(client)
    assert isinstance(response_event, UserResponseEvent)
    assert response_event.response.user_id == client.me.id
    assert response_event.response.status == "submitted"
    assert [r.value for r in response_event.response.responses] == ["positive"]
    assert response_event.response.record.id == "hooked"
    completed = verified(webhook, *receiver.next("record.completed")).parsed(client)
    assert isinstance(completed, RecordEvent) and completed.record.id == "hooked"

    dataset_id = dataset.id
    dataset.delete()
    deleted = verified(webhook, *receiver.next("dataset.deleted"))
    assert deleted.data["id"] == str(dataset_id)
    # The SDK parses a deleted dataset too: the lookup it makes fails quietly.
    assert isinstance(deleted.parsed(client), DatasetEvent)

    # A wrong secret does not verify.
    with pytest.raises(Exception):
        StandardWebhook(whsecret="d3Jvbmctc2VjcmV0LWJ1dC1iYXNlNjQ=").verify(body, headers)


def test_a_disabled_webhook_gets_nothing(client: rg.Argilla, workspace: rg.Workspace, receiver: Receiver, webhooks: list):
    webhook = client.webhooks.add(rg.Webhook(url=receiver.url, events=["dataset.created"]))
    webhooks.append(webhook)
    webhook.enabled = False
    webhook.update()
    make_dataset(client, workspace)
    webhook.enabled = True
    webhook.update()
    second = make_dataset(client, workspace)
    event = verified(webhook, *receiver.next("dataset.created"))
    # The first delivery to arrive is the second dataset's: nothing was sent while disabled.
    assert event.data["id"] == str(second.id)


@pytest.mark.skip(reason="SDK limitation: argilla 2.8.0's WebhooksAPI has no `get`, so `client.webhooks(id)` raises NotImplementedError against any server (list and filter instead)")
def test_webhook_lookup_by_id(client: rg.Argilla, webhooks: list):
    webhook = client.webhooks.add(rg.Webhook(url="https://example.com/hook", events=["record.created"]))
    webhooks.append(webhook)
    assert client.webhooks(webhook.id).url == webhook.url


@pytest.mark.skip(reason="SDK limitation: `rg.webhook_listener` needs FastAPI and uvicorn, which argilla 2.8.0 does not install, and serves on the fixed port 8000; test_deliveries_are_signed_and_parse_as_sdk_events checks deliveries the way its handler does")
def test_webhook_listener():
    pass
