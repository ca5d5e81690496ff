"""The benchmark's inputs: the get_weather calls, two realistic tools (the same
texts as the Rust benchmarks in benches/src/lib.rs) and, for pydantic, models that
accept exactly what each schema accepts."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Dict, List

WEATHER_SCHEMA = json.loads(
    '{"type": "object", "properties": {"city": {"type": "string", "minLength": 1}, "days": {"type": "integer", "minimum": 1, "maximum": 7}, "unit": {"enum": ["c", "f"]}}, "required": ["city"], "additionalProperties": false}'
)
WEATHER_VALID = '{"city":"Paris","days":3}'
WEATHER_INVALID = '{"days": "3", "unit": "kelvin", "country": "FR"}'

FLIGHT_SCHEMA = json.loads(
    r"""{
  "type": "object",
  "description": "Search for flights between two airports on given dates.",
  "properties": {
    "origin": {"type": "string", "description": "IATA code of the departure airport", "pattern": "^[A-Z]{3}$"},
    "destination": {"type": "string", "description": "IATA code of the arrival airport", "pattern": "^[A-Z]{3}$"},
    "departure_date": {"type": "string", "description": "YYYY-MM-DD", "pattern": "^\\d{4}-\\d{2}-\\d{2}$"},
    "return_date": {"type": "string", "description": "YYYY-MM-DD; omit for one way", "pattern": "^\\d{4}-\\d{2}-\\d{2}$"},
    "cabin": {"enum": ["economy", "premium_economy", "business", "first"], "default": "economy"},
    "passengers": {
      "type": "array", "minItems": 1, "maxItems": 9,
      "items": {
        "type": "object",
        "properties": {
          "type": {"enum": ["adult", "child", "infant"]},
          "age": {"type": "integer", "minimum": 0, "maximum": 120},
          "name": {"type": "string", "minLength": 1, "maxLength": 100}
        },
        "required": ["type"],
        "additionalProperties": false
      }
    },
    "max_price": {"type": "number", "minimum": 0, "maximum": 100000},
    "currency": {"type": "string", "pattern": "^[A-Z]{3}$"},
    "filters": {
      "type": "object",
      "properties": {
        "max_stops": {"type": "integer", "minimum": 0, "maximum": 3},
        "airlines": {"type": "array", "maxItems": 10, "items": {"type": "string", "pattern": "^[A-Z0-9]{2}$"}},
        "refundable": {"type": "boolean"},
        "departure_window": {
          "type": "object",
          "properties": {
            "earliest": {"type": "string", "pattern": "^\\d{2}:\\d{2}$"},
            "latest": {"type": "string", "pattern": "^\\d{2}:\\d{2}$"}
          },
          "additionalProperties": false
        }
      },
      "additionalProperties": false
    }
  },
  "required": ["origin", "destination", "departure_date", "passengers"],
  "additionalProperties": false
}"""
)
FLIGHT_VALID = '{"origin":"CDG","destination":"JFK","departure_date":"2025-06-14","return_date":"2025-06-28","cabin":"economy","passengers":[{"type":"adult","age":34,"name":"Marie Curie"},{"type":"adult","age":36,"name":"Pierre Curie"},{"type":"child","age":7,"name":"Irene Curie"}],"max_price":1450.5,"currency":"EUR","filters":{"max_stops":1,"airlines":["AF","DL","KL"],"refundable":true,"departure_window":{"earliest":"08:00","latest":"20:30"}}}'
FLIGHT_INVALID = '{"origin":"Paris","destination":"JFK","departure_date":"2025-06-14","return_date":"2025-06-28","cabin":"luxury","passengers":[{"type":"adult","age":34,"name":"Marie Curie"},{"type":"adult","age":-3,"name":"Pierre Curie"},{"type":"child","age":7,"name":"Irene Curie"}],"max_price":1450.5,"currency":"EUR","filters":{"max_stops":"1","airlines":["AF","DL","KL"],"refundable":true},"loyalty_id":"AF123456"}'

EVENT_SCHEMA = json.loads(
    r"""{
  "type": "object",
  "description": "Create an event in the user's calendar.",
  "properties": {
    "title": {"type": "string", "minLength": 1, "maxLength": 200},
    "start": {"type": "string", "description": "RFC 3339 date-time", "pattern": "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2})?(Z|[+-]\\d{2}:\\d{2})$"},
    "duration_minutes": {"type": "integer", "minimum": 5, "maximum": 1440},
    "attendees": {
      "type": "array", "maxItems": 50,
      "items": {
        "type": "object",
        "properties": {
          "email": {"type": "string", "pattern": "^[^@\\s]+@[^@\\s]+\\.[A-Za-z]{2,}$"},
          "optional": {"type": "boolean"},
          "response": {"enum": ["needs_action", "accepted", "declined", "tentative"]}
        },
        "required": ["email"],
        "additionalProperties": false
      }
    },
    "location": {
      "type": "object",
      "properties": {
        "name": {"type": "string", "minLength": 1},
        "address": {"type": "string", "maxLength": 300},
        "lat": {"type": "number", "minimum": -90, "maximum": 90},
        "lon": {"type": "number", "minimum": -180, "maximum": 180}
      },
      "required": ["name"],
      "additionalProperties": false
    },
    "reminders": {"type": "array", "maxItems": 5, "items": {"type": "integer", "minimum": 0, "maximum": 40320}},
    "visibility": {"enum": ["default", "public", "private"]},
    "color": {"type": "string", "pattern": "^#[0-9a-fA-F]{6}$"}
  },
  "required": ["title", "start", "duration_minutes"],
  "additionalProperties": false
}"""
)
EVENT_VALID = '{"title":"Quarterly planning","start":"2025-07-01T09:30:00+02:00","duration_minutes":90,"attendees":[{"email":"ada@example.com","response":"accepted"},{"email":"grace.hopper@navy.example.org","optional":true},{"email":"linus@kernel.example"}],"location":{"name":"Room 4.01","address":"12 rue de la Paix, Paris","lat":48.8686,"lon":2.3314},"reminders":[10,60],"visibility":"private","color":"#3366ff"}'
EVENT_INVALID = '{"title":"Quarterly planning","start":"tomorrow 9:30","duration_minutes":0,"attendees":[{"email":"ada@example.com","response":"accepted"},{"email":"grace hopper","optional":true},{"email":"linus@kernel.example"}],"location":{"address":"12 rue de la Paix, Paris","lat":48.8686,"lon":2.3314},"reminders":[10,60],"visibility":"private","color":"#3366ff","priority":"high"}'


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
    Case("get_weather", "valid", WEATHER_SCHEMA, WEATHER_VALID, True, False),
    Case("get_weather", "invalid", WEATHER_SCHEMA, WEATHER_INVALID, False, False),
    Case("search_flights", "valid", FLIGHT_SCHEMA, FLIGHT_VALID, True, True),
    Case("search_flights", "invalid", FLIGHT_SCHEMA, FLIGHT_INVALID, False, True),
    Case("create_calendar_event", "valid", EVENT_SCHEMA, EVENT_VALID, True, True),
    Case("create_calendar_event", "invalid", EVENT_SCHEMA, EVENT_INVALID, False, True),
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
