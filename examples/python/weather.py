"""A small Python host for toolgate: registers two tools, prints the definitions a
model would see, then answers three model calls (a valid one, one the model got wrong,
and one whose tool fails), printing the tool message of each; last, the refused
arguments checked on their own with a compiled schema.

Run (with the package installed: pip install ./python): python3 examples/python/weather.py
"""

import json

import toolgate
from toolgate import ToolRegistry

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

TIME_SCHEMA = {
    "type": "object",
    "properties": {"timezone": {"type": "string", "pattern": "^[A-Za-z_]+/[A-Za-z_]+$"}},
    "required": ["timezone"],
    "additionalProperties": False,
}


def get_weather(city, days=1, unit="c"):
    """Called with the arguments as keywords, after they passed the schema."""
    return f"forecast for {city}, {days} days: sunny, 21 C"


def get_time(timezone):
    """A tool that fails: the exception's text reaches the model as "error: ..."."""
    raise RuntimeError("the clock service is not configured")


def call(registry, call_id, name, args):
    result = registry.call(call_id, name, args)
    message = json.dumps(result.message(), ensure_ascii=False, separators=(",", ":"))
    print(f"\nmodel calls {name}({args})\ntool message: {message}\ncontent:\n{result.content}")


def main():
    print(f"toolgate {toolgate.__version__}")
    registry = ToolRegistry()
    registry.register(
        "get_weather",
        WEATHER_SCHEMA,
        get_weather,
        description="Weather forecast for a city, 1 to 7 days ahead.",
        idempotent=True,
        timeout_ms=5000,
    )
    registry.register(
        "get_time", TIME_SCHEMA, get_time, description="Current time in an IANA time zone."
    )
    print(f"definitions (sorted by name):\n{registry.definitions_json()}")

    call(registry, "call_1", "get_weather", '{"city":"Paris","days":3}')
    refused = '{"days": "3", "unit": "kelvin", "country": "FR"}'
    call(registry, "call_2", "get_weather", refused)
    call(registry, "call_3", "get_time", '{"timezone":"Europe/Paris"}')

    # The same check outside a registry: each error's path is the JSON pointer to
    # where the fix goes.
    print("\ncompile(WEATHER_SCHEMA).validate(...):")
    for error in toolgate.compile(WEATHER_SCHEMA).validate(refused):
        print(f"{error.path} {error.keyword}: {error.message}")


if __name__ == "__main__":
    main()
