"""The Argilla SDK imports a Gloss file export in the Argilla disk format (test/compat/export-disk.test.ts): the zip is
unpacked into a folder, then `Dataset.from_disk(<folder>, name=<name>, workspace=<workspace>)`. Prints, on its last
line, JSON: the new dataset's id, how many records it has, and the `label` responses of record `r-0` as the SDK
reads them back from the server."""

import json
import os
import sys
import tempfile
import zipfile

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

import argilla as rg  # noqa: E402

from conftest import API_KEY, API_URL  # noqa: E402

archive, name, workspace = sys.argv[1:4]
client = rg.Argilla(api_url=API_URL, api_key=API_KEY, timeout=60, retries=1)
with tempfile.TemporaryDirectory() as folder:
    with zipfile.ZipFile(archive) as zipped:
        zipped.extractall(folder)
    dataset = rg.Dataset.from_disk(folder, name=name, workspace=workspace, client=client)

records = list(dataset.records(with_responses=True))
first = next(record for record in records if record.id == "r-0")
label = [{"value": r.value, "user_id": str(r.user_id), "status": getattr(r.status, "value", r.status)} for r in first.responses["label"]]
print(json.dumps({"id": str(dataset.id), "count": len(records), "label": label}))
