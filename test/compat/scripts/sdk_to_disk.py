"""The Argilla SDK writes a dataset to disk (test/compat/disk-gloss-client.test.ts): a dataset with every setting
kind (conftest.full_settings), records with responses and suggestions, `Dataset.to_disk(<dir>)`. Prints the source
dataset's id and workspace name as JSON on its last line."""

import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

import argilla as rg  # noqa: E402

from conftest import API_KEY, API_URL, make_dataset, unique  # noqa: E402

client = rg.Argilla(api_url=API_URL, api_key=API_KEY, timeout=60, retries=1)
rg.Argilla._set_default(client)
workspace = client.workspaces.add(rg.Workspace(name=unique("sdkdisk"), client=client))
dataset = make_dataset(client, workspace, records=7)
me = client.me
records = list(dataset.records)
records[0].responses.add(rg.Response("label", "positive", user_id=me.id, status="submitted"))
records[0].responses.add(rg.Response("comment", "fine", user_id=me.id, status="submitted"))
records[1].responses.add(rg.Response("topics", ["sport", "music"], user_id=me.id, status="draft"))
records[1].suggestions.add(rg.Suggestion("label", "negative", score=0.5, agent="model-a"))
records[2].suggestions.add(rg.Suggestion("ranking", ["c", "a", "b"], agent="ranker"))
records[3].suggestions.add(rg.Suggestion("rating", 4, score=0.9, agent="model-b", type="model"))
dataset.records.log(records[:4])
os.makedirs(sys.argv[1], exist_ok=True)
dataset.to_disk(sys.argv[1])
print(json.dumps({"id": str(dataset.id), "workspace": workspace.name}))
