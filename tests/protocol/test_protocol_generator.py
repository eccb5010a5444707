"""The generated module matches the vendored schemas, and its typing stub parses."""

import ast
import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def load_generator():
    spec = importlib.util.spec_from_file_location(
        "generate_messages", ROOT / "tools/generate_messages.py"
    )
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def test_generated_files_are_up_to_date():
    gen = load_generator()
    schemas = [gen.Schema(gen.load_schema(p)) for p in sorted(gen.SCHEMAS.glob("*.json"))]
    code, stub = gen.generate(schemas)
    assert gen.OUT.read_text() == code, "run: python tools/generate_messages.py"
    assert gen.STUB.read_text() == stub, "run: python tools/generate_messages.py"
    assert code.startswith("# GENERATED") and "DO NOT EDIT" in code


def test_stub_parses_and_declares_every_class():
    gen = load_generator()
    tree = ast.parse(gen.STUB.read_text())
    names = {node.name for node in tree.body if isinstance(node, ast.ClassDef)}
    assert {"MetadataRequest", "FetchResponse", "RequestHeader", "ApiKey"} <= names
    assert len(names) == 187


def test_schemas_are_vendored_with_their_license():
    schemas = ROOT / "kafkawire/protocol/schemas"
    assert (schemas / "LICENSE").exists() and (schemas / "NOTICE").exists()
    assert len(list(schemas.glob("*.json"))) == 186


def test_version_ranges():
    gen = load_generator()
    assert gen.parse_versions("3+") == (3, gen.MAX_VERSION)
    assert gen.parse_versions("1-4") == (1, 4)
    assert gen.parse_versions("7") == (7, 7)
    assert gen.parse_versions("none") == (1, 0)
    assert gen.snake("RequestApiKey") == "request_api_key"
    assert gen.snake("TopicId") == "topic_id"
    assert gen.snake("ISRNodes") == "isr_nodes"
