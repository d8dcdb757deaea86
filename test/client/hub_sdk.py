"""The Argilla SDK's side of the Hub interoperability test (test/client/hub-sdk.test.ts).

`from-hub REPO NAME WORKSPACE`: `rg.Dataset.from_hub` of a repo Gloss wrote; prints the new dataset's id.
`to-hub REPO NAME WORKSPACE`: creates a dataset with the SDK (every kind of value), pushes it with `Dataset.to_hub`;
prints its id. The Gloss server is ARGILLA_API_URL / ARGILLA_API_KEY; the Hub is HF_ENDPOINT with HF_TOKEN.
"""
import json
import os
import sys
import warnings

import argilla as rg

warnings.simplefilter("ignore")
mode, repo, name, workspace = sys.argv[1:5]
client = rg.Argilla(api_url=os.environ["ARGILLA_API_URL"], api_key=os.environ["ARGILLA_API_KEY"])

if mode == "from-hub":
    dataset = rg.Dataset.from_hub(repo, name=name, workspace=workspace, client=client, settings="auto",
                                  token=os.environ["HF_TOKEN"])
    print(json.dumps({"id": str(dataset.id), "records": len(list(dataset.records))}))
elif mode == "to-hub":
    settings = rg.Settings(
        fields=[rg.TextField(name="text")],
        questions=[
            rg.LabelQuestion(name="label", labels=["pos", "neg"]),
            rg.MultiLabelQuestion(name="topics", labels=["a", "b", "c"], required=False),
            rg.RatingQuestion(name="rating", values=[1, 2, 3], required=False),
            rg.TextQuestion(name="note", required=False),
        ],
        metadata=[rg.IntegerMetadataProperty(name="year"), rg.TermsMetadataProperty(name="source")],
        vectors=[rg.VectorField(name="emb", dimensions=3)],
    )
    dataset = rg.Dataset(name=name, workspace=workspace, settings=settings, client=client).create()
    me = client.me.id
    records = []
    for i in range(60):
        records.append(rg.Record(
            id=f"sdk-{i}",
            fields={"text": f"text {i}"},
            metadata={"year": 2000 + i % 7, "source": f"s{i % 3}"},
            vectors={"emb": [float(i), i / 2, -1.0]},
            suggestions=[rg.Suggestion("label", "pos" if i % 2 else "neg", score=0.5, agent="m1")]
            + ([rg.Suggestion("topics", ["a", "c"], score=[0.1, 0.2])] if i % 3 == 0 else []),
            responses=[rg.Response("label", "neg", user_id=me), rg.Response("rating", 1 + i % 3, user_id=me)]
            if i % 4 == 0 else [],
        ))
    dataset.records.log(records)
    # The card needs Jinja2, which the pinned .venv (test/compat/requirements.txt) does not have; the card is the only
    # thing generate_card adds (README.md), and the data and settings files are the same without it.
    dataset.to_hub(repo, token=os.environ["HF_TOKEN"], generate_card=False)
    print(json.dumps({"id": str(dataset.id)}))
