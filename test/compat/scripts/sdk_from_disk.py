"""The Argilla SDK imports a folder Gloss's client wrote (test/compat/disk-gloss-client.test.ts):
`Dataset.from_disk(<dir>, name=<name>, workspace=<workspace>)`. Prints the new dataset's id on its last line."""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

import argilla as rg  # noqa: E402

from conftest import API_KEY, API_URL  # noqa: E402

client = rg.Argilla(api_url=API_URL, api_key=API_KEY, timeout=60, retries=1)
dataset = rg.Dataset.from_disk(sys.argv[1], name=sys.argv[2], workspace=sys.argv[3], client=client)
print(str(dataset.id))
