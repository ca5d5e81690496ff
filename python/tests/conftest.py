import os
from pathlib import Path

import pytest

import toolgate

REPO_ROOT = Path(__file__).resolve().parents[2]

# The error-path table's schema.
USER_SCHEMA = {
    "type": "object",
    "required": ["id"],
    "properties": {
        "id": {"type": "integer"},
        "fields": {"type": "array", "items": {"type": "string", "enum": ["id", "name", "email"]}},
    },
}

# The get_weather example.
WEATHER_SCHEMA = {
    "type": "object",
    "properties": {
        "city": {"type": "string", "minLength": 1},
        "days": {"type": "integer", "minimum": 1, "maximum": 7},
        "unit": {"enum": ["c", "f"]},
    },
    "required": ["city"],
    "additionalProperties": False,
}


def echo(**kwargs):
    """A handler that answers with the arguments it received."""
    return kwargs


@pytest.fixture
def registry():
    with toolgate.ToolRegistry() as reg:
        yield reg


@pytest.fixture
def users(registry):
    registry.register("db.get_user", USER_SCHEMA, echo, description="Look a user up by id.")
    return registry


def pytest_report_header(config):
    return f"toolgate {toolgate.__version__}, libtoolgate {toolgate.library_version} from {toolgate.library_path}"


def vectors_file():
    return Path(os.environ.get("TOOLGATE_VECTORS", REPO_ROOT / "tests" / "vectors.json"))
