"""The benchmark's inputs: the get_weather calls and two realistic tools, read from
benches/inputs.jsonl (the file the Rust and C benchmarks read, so every host measures
the same bytes) and, for pydantic, models that accept exactly what each schema
accepts."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, List

INPUTS_PATH = Path(__file__).resolve().parents[2] / "benches" / "inputs.jsonl"

# One tool per line: its schema, a valid and an invalid call, each a JSON string.
with INPUTS_PATH.open(encoding="utf-8") as f:
    TOOLS: List[Dict[str, Any]] = [json.loads(line) for line in f if line.strip()]


@dataclass
class Case:
    tool: str
    kind: str
    schema: Any
    text: str
    valid: bool
    realistic: bool
    counts: Dict[str, int] = field(default_factory=dict)

    @property
    def title(self) -> str:
        return f"{self.tool} {self.kind}"


CASES: List[Case] = [
    Case(t["tool"], kind, json.loads(t["schema"]), t[kind], kind == "valid", t["realistic"])
    for t in TOOLS
    for kind in ("valid", "invalid")
]

MODELS: Dict[str, Any] = {}

try:
    from typing import Literal

    from pydantic import BaseModel, ConfigDict, Field
    from typing_extensions import Annotated
except ImportError:  # pragma: no cover - the pydantic rows are left out
    pass
else:
    # Strict (no coercion: "3" is not an integer) and closed (no extra property), as
    # the schemas are. An optional property gets a default of its own type rather
    # than None, so that it may be absent but not null, as in the schema. Patterns
    # use [0-9] where the schema says \d: in ECMA-262 \d means [0-9] only.

    class Closed(BaseModel):
        model_config = ConfigDict(strict=True, extra="forbid")

    class Weather(Closed):
        city: Annotated[str, Field(min_length=1)]
        days: Annotated[int, Field(ge=1, le=7)] = 1
        unit: Literal["c", "f"] = "c"

    Iata = Annotated[str, Field(pattern=r"^[A-Z]{3}$")]
    Date = Annotated[str, Field(pattern=r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$")]
    Clock = Annotated[str, Field(pattern=r"^[0-9]{2}:[0-9]{2}$")]

    class Passenger(Closed):
        type: Literal["adult", "child", "infant"]
        age: Annotated[int, Field(ge=0, le=120)] = 0
        name: Annotated[str, Field(min_length=1, max_length=100)] = "-"

    class Window(Closed):
        earliest: Clock = "00:00"
        latest: Clock = "23:59"

    class Filters(Closed):
        max_stops: Annotated[int, Field(ge=0, le=3)] = 0
        airlines: Annotated[List[Annotated[str, Field(pattern=r"^[A-Z0-9]{2}$")]], Field(max_length=10)] = []
        refundable: bool = False
        departure_window: Window = Window()

    class Flight(Closed):
        origin: Iata
        destination: Iata
        departure_date: Date
        return_date: Date = "-"
        cabin: Literal["economy", "premium_economy", "business", "first"] = "economy"
        passengers: Annotated[List[Passenger], Field(min_length=1, max_length=9)]
        max_price: Annotated[float, Field(ge=0, le=100000)] = 0.0
        currency: Iata = "EUR"
        filters: Filters = Filters()

    class Attendee(Closed):
        email: Annotated[str, Field(pattern=r"^[^@\s]+@[^@\s]+\.[A-Za-z]{2,}$")]
        optional: bool = False
        response: Literal["needs_action", "accepted", "declined", "tentative"] = "needs_action"

    class Location(Closed):
        name: Annotated[str, Field(min_length=1)]
        address: Annotated[str, Field(max_length=300)] = ""
        lat: Annotated[float, Field(ge=-90, le=90)] = 0.0
        lon: Annotated[float, Field(ge=-180, le=180)] = 0.0

    class Event(Closed):
        title: Annotated[str, Field(min_length=1, max_length=200)]
        start: Annotated[
            str, Field(pattern=r"^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}(:[0-9]{2})?(Z|[+-][0-9]{2}:[0-9]{2})$")
        ]
        duration_minutes: Annotated[int, Field(ge=5, le=1440)]
        attendees: Annotated[List[Attendee], Field(max_length=50)] = []
        location: Location = Location(name="-")
        reminders: Annotated[List[Annotated[int, Field(ge=0, le=40320)]], Field(max_length=5)] = []
        visibility: Literal["default", "public", "private"] = "default"
        color: Annotated[str, Field(pattern=r"^#[0-9a-fA-F]{6}$")] = "#000000"

    MODELS.update(get_weather=Weather, search_flights=Flight, create_calendar_event=Event)
