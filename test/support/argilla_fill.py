"""Fills a real Argilla server through the real `argilla` SDK, for the tests of `gloss migrate from-argilla`.

Run with the SDK's venv (.venv/bin/python), against a server started by test/support/argillaServer.ts:

    argilla_fill.py fill --api-url URL --api-key KEY --records N [--seed S] [--webhook-url URL] [--owner-password P]
    argilla_fill.py change --api-url URL --api-key KEY --dataset-id ID

`fill` makes users, workspaces, two datasets with every kind of field, question, metadata property and vector,
records with suggestions and responses in every status, and a webhook; `change` then makes what a re-sync must carry
(new records, a changed response, a deleted record, a new user). Each prints ONE JSON object on stdout (what it
made, with the counts a test compares against the server); everything else (the SDK's progress and logs) goes to
stderr. The same seed makes the same content (not the same ids, which the server picks).
"""

import argparse
import contextlib
import json
import random
import secrets
import sys
from typing import Any, Dict, List

import argilla as rg

# Every user's password is known, so a test can sign in as them; the server wants 8 characters at least.
PASSWORDS = {
    "admin": "admin-password-1",
    "annotator1": "annotator1-password",
    "annotator2": "annotator2-password",
    "annotator3": "annotator3-password",
}
LABELS = ["positive", "negative", "neutral"]
TOPICS = ["science", "music", "sports", "politics", "food"]
RANKED = ["reply-a", "reply-b", "reply-c"]
SPAN_LABELS = ["PER", "ORG", "LOC"]
SOURCES = ["news", "forum", "review", "chat"]
WORDS = (
    "the quick brown fox jumps over a lazy dog while Ada Lovelace writes notes for Acme Corp in Paris "
    "and Grace Hopper finds a moth near Boston during a long night of careful debugging"
).split()
DIMENSIONS = 8
# Records per bulk request: the server takes up to 500, the SDK sends 256 by default.
BATCH = 500
# Seconds the SDK waits for an answer. Its default, 60, is less than a bulk request of BATCH records with responses,
# suggestions and vectors takes a real Argilla server on two cores shared with the rest of a CI run (it indexes
# each record in its search engine and queues an event per record); a timeout there fails the whole fill.
TIMEOUT = 300
WEBHOOK_EVENTS = [
    "dataset.created",
    "dataset.updated",
    "dataset.deleted",
    "dataset.published",
    "record.created",
    "record.updated",
    "record.deleted",
    "record.completed",
    "response.created",
    "response.updated",
    "response.deleted",
]


def log(*args: Any) -> None:
    print(*args, file=sys.stderr, flush=True)


def rest(client: rg.Argilla, method: str, path: str, **kwargs: Any) -> Any:
    """A REST call through the SDK's own authenticated HTTP client, for what the SDK does not expose (a user's API
    key, a response's id)."""
    response = client.api.http_client.request(method, path, **kwargs)
    response.raise_for_status()
    return response.json()


def sentence(rnd: random.Random, words: int) -> str:
    start = rnd.randrange(len(WORDS))
    return " ".join(WORDS[(start + i) % len(WORDS)] for i in range(words))


def span_in(rnd: random.Random, text: str) -> List[Dict[str, Any]]:
    """One span over a whole word of the text."""
    starts = [0] + [i + 1 for i, c in enumerate(text) if c == " "]
    start = rnd.choice(starts)
    end = text.find(" ", start)
    return [{"label": rnd.choice(SPAN_LABELS), "start": start, "end": len(text) if end == -1 else end}]


class Counts:
    def __init__(self) -> None:
        self.records = 0
        self.responses = {"submitted": 0, "draft": 0, "discarded": 0}
        self.suggestions = 0
        self.vectors = 0
        self.completed = 0

    def as_json(self) -> Dict[str, Any]:
        return {
            "records": self.records,
            "responses": dict(self.responses),
            "suggestions": self.suggestions,
            "vectors": self.vectors,
            "completed": self.completed,
        }

    def add(self, other: "Counts") -> None:
        self.records += other.records
        for status, n in other.responses.items():
            self.responses[status] += n
        self.suggestions += other.suggestions
        self.vectors += other.vectors
        self.completed += other.completed


def everything_settings() -> rg.Settings:
    return rg.Settings(
        guidelines="Read the text, then answer every question. Mark the named entities of the text.",
        allow_extra_metadata=False,
        fields=[
            rg.TextField(name="text", title="Text", use_markdown=False),
            rg.TextField(name="context", title="Context", use_markdown=True, required=False),
        ],
        questions=[
            rg.LabelQuestion(name="label", title="Sentiment", labels=LABELS, description="The overall feeling."),
            rg.MultiLabelQuestion(name="topics", labels=TOPICS, required=False, visible_labels=5),
            rg.RatingQuestion(name="quality", values=[1, 2, 3, 4, 5]),
            rg.RankingQuestion(name="ranking", values=RANKED, required=False),
            rg.SpanQuestion(name="entities", field="text", labels=SPAN_LABELS, required=False),
            rg.TextQuestion(name="comment", use_markdown=True, required=False),
        ],
        metadata=[
            rg.TermsMetadataProperty(name="source", options=SOURCES),
            rg.IntegerMetadataProperty(name="length", min=0, max=1000),
            rg.FloatMetadataProperty(name="score", min=0.0, max=1.0, visible_for_annotators=False),
        ],
        vectors=[rg.VectorField(name="embedding", dimensions=DIMENSIONS, title="Embedding")],
        distribution=rg.TaskDistribution(min_submitted=2),
    )


def second_settings() -> rg.Settings:
    return rg.Settings(
        guidelines="Pick a label.",
        fields=[rg.TextField(name="text")],
        questions=[
            rg.LabelQuestion(name="label", labels=LABELS),
            rg.TextQuestion(name="note", required=False),
        ],
    )


def everything_response(rnd: random.Random, user_id: Any, status: str, text: str) -> List[rg.Response]:
    """A user's answer to a record of "everything": a submitted one answers every required question (and some
    optional ones), a draft some, a discarded one sometimes nothing."""
    answers: Dict[str, Any] = {}
    if status != "discarded" or rnd.random() < 0.5:
        answers["label"] = rnd.choice(LABELS)
    if status == "submitted" or rnd.random() < 0.5:
        answers["quality"] = rnd.randint(1, 5)
    if rnd.random() < 0.5:
        answers["topics"] = rnd.sample(TOPICS, rnd.randint(1, 3))
    if rnd.random() < 0.4:
        # Given with ranks: the SDK sends names alone without them, which Argilla refuses.
        order = rnd.sample(RANKED, len(RANKED))
        answers["ranking"] = [{"value": value, "rank": rank} for rank, value in enumerate(order, start=1)]
    if rnd.random() < 0.4:
        answers["entities"] = span_in(rnd, text)
    if rnd.random() < 0.3:
        answers["comment"] = f"**Note** {sentence(rnd, 4)}"
    if not answers:
        # The SDK carries a user's status on their answers: a discarded response with no value has one valueless.
        return [rg.Response("label", None, user_id=user_id, status=status)]
    return [rg.Response(question, value, user_id=user_id, status=status) for question, value in answers.items()]


def pick_status(rnd: random.Random) -> str:
    return rnd.choices(["submitted", "draft", "discarded"], weights=[6, 2, 2])[0]


def everything_records(rnd: random.Random, count: int, first: int, responders: List[Any], counts: Counts) -> List[rg.Record]:
    records = []
    for i in range(first, first + count):
        text = sentence(rnd, rnd.randint(5, 14))
        fields: Dict[str, Any] = {"text": text}
        if rnd.random() < 0.7:
            fields["context"] = f"# Context {i}\n\nFrom *{rnd.choice(SOURCES)}*."
        metadata: Dict[str, Any] = {"source": rnd.choice(SOURCES), "length": len(text)}
        if rnd.random() < 0.8:
            metadata["score"] = round(rnd.random(), 4)
        vectors = {}
        if rnd.random() < 0.9:
            vectors["embedding"] = [round(rnd.uniform(-1, 1), 6) for _ in range(DIMENSIONS)]
            counts.vectors += 1
        suggestions = []
        if rnd.random() < 0.7:
            suggestions.append(rg.Suggestion("label", rnd.choice(LABELS), score=round(rnd.random(), 3), agent="model-a"))
        if rnd.random() < 0.4:
            topics = rnd.sample(TOPICS, 2)
            suggestions.append(rg.Suggestion("topics", topics, score=[0.8, 0.3], agent="model-b"))
        if rnd.random() < 0.4:
            suggestions.append(rg.Suggestion("quality", rnd.randint(1, 5), score=round(rnd.random(), 3), agent="model-a"))
        if rnd.random() < 0.2:
            suggestions.append(rg.Suggestion("entities", span_in(rnd, text), agent="tagger", type="model"))
        if rnd.random() < 0.2:
            suggestions.append(rg.Suggestion("comment", "A suggested comment", agent="human-1", type="human"))
        counts.suggestions += len(suggestions)
        responses: List[rg.Response] = []
        submitted = 0
        for user_id, rate in responders:
            if rnd.random() < rate:
                status = pick_status(rnd)
                responses += everything_response(rnd, user_id, status, text)
                counts.responses[status] += 1
                submitted += status == "submitted"
        counts.completed += submitted >= 2
        counts.records += 1
        records.append(
            rg.Record(
                id=f"rec-{i}",
                fields=fields,
                metadata=metadata,
                vectors=vectors or None,
                suggestions=suggestions,
                responses=responses or None,
            )
        )
    return records


def second_records(rnd: random.Random, count: int, responders: List[Any], counts: Counts) -> List[rg.Record]:
    records = []
    for i in range(count):
        responses: List[rg.Response] = []
        submitted = 0
        for user_id, rate in responders:
            if rnd.random() < rate:
                status = pick_status(rnd)
                if status == "submitted" or rnd.random() < 0.5:
                    responses.append(rg.Response("label", rnd.choice(LABELS), user_id=user_id, status=status))
                else:
                    responses.append(rg.Response("note", sentence(rnd, 3), user_id=user_id, status=status))
                counts.responses[status] += 1
                submitted += status == "submitted"
        suggestions = []
        if rnd.random() < 0.5:
            suggestions.append(rg.Suggestion("label", rnd.choice(LABELS), score=round(rnd.random(), 3), agent="model-c"))
        counts.suggestions += len(suggestions)
        # The default distribution: one submitted response completes a record.
        counts.completed += submitted >= 1
        counts.records += 1
        records.append(
            rg.Record(id=f"second-{i}", fields={"text": sentence(rnd, 8)}, suggestions=suggestions, responses=responses or None)
        )
    return records


def log_records(dataset: rg.Dataset, records: List[rg.Record]) -> None:
    for start in range(0, len(records), BATCH):
        dataset.records.log(records[start : start + BATCH], batch_size=BATCH)


def user_json(client: rg.Argilla, user: rg.User, password: str) -> Dict[str, Any]:
    read = rest(client, "GET", f"/api/v1/users/{user.id}")
    return {"id": str(user.id), "username": user.username, "password": password, "api_key": read["api_key"], "role": read["role"]}


def fill(args: argparse.Namespace) -> Dict[str, Any]:
    rnd = random.Random(args.seed)
    client = rg.Argilla(api_url=args.api_url, api_key=args.api_key, timeout=TIMEOUT)
    owner = client.me

    ws1 = client.workspaces.add(rg.Workspace(name="team-one"))
    ws2 = client.workspaces.add(rg.Workspace(name="team-two"))
    users = {}
    for username, password in PASSWORDS.items():
        role = "admin" if username == "admin" else "annotator"
        user = rg.User(username=username, password=password, role=role, first_name=username.capitalize(), last_name="Tester")
        users[username] = user.create()
        users[username].add_to_workspace(ws1)
        if username != "annotator3":
            users[username].add_to_workspace(ws2)
    log(f"fill: {len(users)} users, workspaces {ws1.name} and {ws2.name}")

    everything = rg.Dataset(name="everything", workspace=ws1, settings=everything_settings(), client=client).create()
    # About 0.6 answers per record per annotator; the admin answers some too.
    responders = [(users[name].id, 0.6) for name in ("annotator1", "annotator2", "annotator3")] + [(users["admin"].id, 0.2)]
    counts1 = Counts()
    log_records(everything, everything_records(rnd, args.records, 0, responders, counts1))
    log(f"fill: {counts1.records} records in {everything.name}")

    second = rg.Dataset(name="second", workspace=ws2, settings=second_settings(), client=client).create()
    responders2 = [(users[name].id, 0.5) for name in ("annotator1", "annotator2")] + [(users["admin"].id, 0.3)]
    counts2 = Counts()
    log_records(second, second_records(rnd, args.records // 4, responders2, counts2))
    log(f"fill: {counts2.records} records in {second.name}")

    # Added last, so the records logged above raise no events for the worker to deliver.
    webhook = client.webhooks.add(rg.Webhook(url=args.webhook_url, events=WEBHOOK_EVENTS, description="Fill's webhook"))

    total = Counts()
    total.add(counts1)
    total.add(counts2)
    owner_json = {
        "id": str(owner.id),
        "username": owner.username,
        "password": args.owner_password,
        "api_key": args.api_key,
        "role": "owner",
    }
    return {
        "users": [owner_json] + [user_json(client, user, PASSWORDS[name]) for name, user in users.items()],
        "workspaces": [{"id": str(ws.id), "name": ws.name} for ws in (ws1, ws2)],
        "datasets": [
            {"id": str(ds.id), "name": ds.name, "workspace": ws.name, "records": c.records, "counts": c.as_json()}
            for ds, ws, c in ((everything, ws1, counts1), (second, ws2, counts2))
        ],
        "webhook": {
            "id": str(webhook.id),
            "url": webhook.url,
            "secret": webhook.secret,
            "events": [str(getattr(event, "value", event)) for event in webhook.events],
            "enabled": webhook.enabled,
        },
        "counts": total.as_json(),
    }


def change(args: argparse.Namespace) -> Dict[str, Any]:
    rnd = random.Random(args.seed)
    client = rg.Argilla(api_url=args.api_url, api_key=args.api_key, timeout=TIMEOUT)
    dataset = client.datasets(id=args.dataset_id)
    if dataset is None:
        raise SystemExit(f"change: no dataset {args.dataset_id}")
    # Fetched by id, a dataset's settings come from the server only when asked for.
    dataset.settings.get()
    if dataset.settings.questions["quality"] is None:
        raise SystemExit(f"change: {dataset.name} is not a dataset like fill's \"everything\"")

    # One response changes value and status: a submitted label becomes another label, as a draft. Through a bulk
    # upsert of its record (the record's fields and metadata as they are, and only that user's response): Argilla's
    # single-response endpoints update the search index with a Painless script, which the test Elasticsearch lacks.
    target = None
    for record in dataset.records(with_responses=True, with_suggestions=False, with_vectors=False):
        for response in record.responses:
            if response.question_name == "label" and response.status == "submitted":
                target = (record, response.user_id)
                break
        if target:
            break
    if target is None:
        raise SystemExit("change: no submitted response with a label to change")
    record, user_id = target
    answers = [r for r in record.responses if r.user_id == user_id]
    old_label = next(r.value for r in answers if r.question_name == "label")
    new_label = next(label for label in LABELS if label != old_label)
    changed_answers = []
    for answer in answers:
        value = new_label if answer.question_name == "label" else answer.value
        if answer.question_name == "ranking":
            value = [{"value": v, "rank": rank} for rank, v in enumerate(value, start=1)]
        changed_answers.append(rg.Response(answer.question_name, value, user_id=user_id, status="draft"))
    dataset.records.log(
        [
            rg.Record(
                id=record.id,
                _server_id=record._server_id,
                fields=dict(record.fields),
                metadata=dict(record.metadata),
                responses=changed_answers,
            )
        ]
    )
    # (Argilla 2.8.0's GET /api/v1/records/{id} fails with a 500 on this record: found by a search instead.)
    by_id = {"type": "terms", "scope": {"entity": "record", "property": "id"}, "values": [str(record._server_id)]}
    found = rest(
        client,
        "POST",
        f"/api/v1/datasets/{dataset.id}/records/search",
        params={"include": "responses"},
        json={"filters": {"and": [by_id]}},
    )
    changed = next(r for r in found["items"][0]["record"]["responses"] if r["user_id"] == str(user_id))

    # Five new records, numbered after the ones there are.
    existing = {r.id for r in dataset.records(with_responses=False)}
    first = 1 + max(int(external[4:]) for external in existing if external and external.startswith("rec-"))
    counts = Counts()
    added = everything_records(rnd, 5, first, [], counts)
    dataset.records.log(added)

    # One record goes (not the one whose response changed).
    victim = next(r for r in dataset.records(with_responses=False) if r._server_id is not None and r._server_id != record._server_id)
    dataset.records.delete([victim])

    password = "newcomer-password"
    newcomer = rg.User(username=f"newcomer-{secrets.token_hex(3)}", password=password, role="annotator").create()
    return {
        "added_records": [r.id for r in added],
        "changed_response": {
            "id": changed["id"],
            "record_id": str(record._server_id),
            "external_id": record.id,
            "user_id": changed["user_id"],
            "status": {"from": "submitted", "to": changed["status"]},
            "label": {"from": old_label, "to": changed["values"]["label"]["value"]},
        },
        "deleted_record": {"id": str(victim._server_id), "external_id": victim.id},
        "added_user": user_json(client, newcomer, password),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    fill_parser = commands.add_parser("fill", help="users, workspaces, datasets, records, responses and a webhook")
    change_parser = commands.add_parser("change", help="what a re-sync must carry, in one dataset")
    for sub in (fill_parser, change_parser):
        sub.add_argument("--api-url", required=True)
        sub.add_argument("--api-key", required=True)
    fill_parser.add_argument("--records", type=int, required=True)
    # Only printed back: the owner is made by the server's command line, with a password the filler cannot read.
    fill_parser.add_argument("--owner-password")
    fill_parser.add_argument("--seed", type=int, default=1)
    # Port 9 (discard) on loopback: nothing listens, so deliveries fail quietly.
    fill_parser.add_argument("--webhook-url", default="http://127.0.0.1:9/hook")
    change_parser.add_argument("--dataset-id", required=True, help='a dataset like fill\'s "everything"')
    change_parser.add_argument("--seed", type=int, default=2)
    args = parser.parse_args()

    # The SDK prints progress bars and warnings on stdout: only the JSON goes there.
    with contextlib.redirect_stdout(sys.stderr):
        result = fill(args) if args.command == "fill" else change(args)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
