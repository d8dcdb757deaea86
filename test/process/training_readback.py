"""Reads Gloss's training exports with the tools that consume them (test/process/training-readback.test.ts).

`training_readback.py DIR`: DIR holds `training.jsonl`, `dpo.jsonl`, `entities.conll` and `spacy.jsonl` as the server
exported them. JSON Lines go through `datasets.load_dataset("json", ...)`; the CoNLL file through a plain column
reader and seqeval's entity extraction; the spaCy lines into a `DocBin` by `spacy.blank("en")` and `Doc.char_span`
(failing if any span does not map to tokens), serialized and read back. Prints, on its last line, JSON of what each
tool read.
"""
import json
import os
import sys

import datasets
import spacy
from seqeval.metrics import f1_score
from seqeval.metrics.sequence_labeling import get_entities
from spacy.tokens import DocBin

folder = sys.argv[1]
datasets.disable_progress_bars()
cache = os.path.join(folder, "hf-cache")


def load(name):
    return datasets.load_dataset("json", data_files=os.path.join(folder, name), split="train", cache_dir=cache)


training = load("training.jsonl")
dpo = load("dpo.jsonl")


def conll_documents(path):
    """Documents as lists of (token, tag): the first column is the token, the last the tag; blank lines end one."""
    documents, current = [], []
    with open(path, encoding="utf-8") as text:
        for line in text:
            parts = line.split()
            if not parts:
                if current:
                    documents.append(current)
                current = []
                continue
            if parts[0] == "-DOCSTART-":
                continue
            current.append((parts[0], parts[-1]))
    if current:
        documents.append(current)
    return documents


documents = conll_documents(os.path.join(folder, "entities.conll"))
tags = [[tag for _, tag in document] for document in documents]
entities = [
    [[label, " ".join(token for token, _ in document[start:end + 1])] for label, start, end in get_entities(document_tags)]
    for document, document_tags in zip(documents, tags)
]

nlp = spacy.blank("en")
doc_bin = DocBin(store_user_data=False)
unmapped = []
with open(os.path.join(folder, "spacy.jsonl"), encoding="utf-8") as lines:
    for line in lines:
        example = json.loads(line)
        doc = nlp.make_doc(example["text"])
        spans = []
        for span in example["spans"]:
            mapped = doc.char_span(span["start"], span["end"], label=span["label"])
            if mapped is None:
                unmapped.append(span)
            else:
                spans.append(mapped)
        doc.spans["sc"] = spans
        doc.ents = spans
        doc_bin.add(doc)
if unmapped:
    raise SystemExit(f"spans that do not map to spaCy tokens: {unmapped}")
serialized = os.path.join(folder, "train.spacy")
doc_bin.to_disk(serialized)
docs = list(DocBin().from_disk(serialized).get_docs(nlp.vocab))

print(json.dumps({
    "training": {
        "rows": training.num_rows,
        "columns": sorted(training.column_names),
        "external_ids": list(training["external_id"]),
        "first_final_topic": training[0]["final"]["topic"],
    },
    "dpo": {"rows": dpo.num_rows, "columns": sorted(dpo.column_names), "first": {k: dpo[0][k] for k in ("prompt", "chosen", "rejected")}},
    "conll": {"documents": len(documents), "entities": entities, "f1_against_itself": f1_score(tags, tags)},
    "spacy": {"docs": len(docs), "ents": [[[ent.label_, ent.text] for ent in doc.ents] for doc in docs]},
}))
