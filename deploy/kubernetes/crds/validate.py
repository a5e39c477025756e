#!/usr/bin/env python3
"""Validates the custom resources of a rendered overlay against the CRDs beside this script, as the
API server would (kubernetes-validate knows only the built-in kinds): each object of a group a CRD here
defines must match that CRD's openAPIV3Schema for its version, with no field the schema does not name
(the API server would drop it silently). Usage: validate.py RENDERED.yaml"""
import glob, os, sys
import jsonschema, yaml

here = os.path.dirname(os.path.abspath(__file__))
schemas = {}
for path in glob.glob(os.path.join(here, "*.yaml")):
    crd = yaml.safe_load(open(path))
    group = crd["spec"]["group"]
    for version in crd["spec"]["versions"]:
        schemas[(f"{group}/{version['name']}", crd["spec"]["names"]["kind"])] = version["schema"]["openAPIV3Schema"]


def strict(schema):
    """The schema with unnamed fields refused, where the CRD does not keep unknown fields."""
    if isinstance(schema, dict):
        schema = {k: strict(v) for k, v in schema.items()}
        if "properties" in schema and not schema.get("x-kubernetes-preserve-unknown-fields"):
            schema.setdefault("additionalProperties", False)
        if schema.get("x-kubernetes-int-or-string"):
            schema.pop("type", None)
            schema["anyOf"] = [{"type": "integer"}, {"type": "string"}]
        return schema
    if isinstance(schema, list):
        return [strict(s) for s in schema]
    return schema


failures, checked = 0, 0
for document in yaml.safe_load_all(open(sys.argv[1])):
    if not document:
        continue
    key = (document.get("apiVersion"), document.get("kind"))
    group = key[0].split("/")[0] if key[0] and "/" in key[0] else ""
    if key not in schemas:
        if any(known[0].startswith(group + "/") for known in schemas):
            print(f"{key[1]} {document['metadata']['name']}: no CRD here for {key[0]}")
            failures += 1
        continue
    schema = dict(strict(schemas[key]))
    # The API server fills these; the schema names them loosely.
    schema["properties"] = dict(schema.get("properties", {}), apiVersion={"type": "string"}, kind={"type": "string"},
                                metadata={"type": "object"})
    checked += 1
    for error in jsonschema.Draft7Validator(schema).iter_errors(document):
        print(f"{key[1]} {document['metadata']['name']}: {'/'.join(map(str, error.path))}: {error.message}")
        failures += 1
print(f"{checked} custom resources checked against {len(schemas)} CRD versions, {failures} failures")
sys.exit(1 if failures else 0)
