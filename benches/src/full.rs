//! The full profile's benchmark inputs: tool schemas as the generators agent developers
//! use write them, each with a valid call and an invalid one.
//!
//! - `create_booking`: pydantic 2's `model_json_schema()` of a model with two nested
//!   models (`$defs`/`$ref`), optional fields as `anyOf` with `null`, `datetime` and
//!   `EmailStr` (`format: date-time`, `email`) and `Field(gt=0)`
//!   (`exclusiveMinimum`); pydantic sorts each field's keys.
//! - `charge_payment`: zod 4's `z.toJSONSchema` of an object holding a
//!   `z.discriminatedUnion("method", …)`: a `oneOf` whose branches are told apart by a
//!   `const`, `additionalProperties: false` everywhere, a `z.record` as
//!   `propertyNames` + `additionalProperties`.
//! - `search_orders`: zod-to-json-schema's draft-07 output with a name: the root a
//!   `$ref` into `definitions`, a reused object referenced by its path, `$schema` last.

use crate::Case;

/// pydantic 2 `CreateBooking.model_json_schema()`.
pub const BOOKING_SCHEMA: &str = r##"{"$defs": {"Address": {"properties": {"street": {"title": "Street", "type": "string"}, "city": {"title": "City", "type": "string"}, "postal_code": {"title": "Postal Code", "type": "string"}, "country": {"default": "FR", "title": "Country", "type": "string"}}, "required": ["street", "city", "postal_code"], "title": "Address", "type": "object"}, "Person": {"properties": {"name": {"minLength": 1, "title": "Name", "type": "string"}, "email": {"format": "email", "title": "Email", "type": "string"}}, "required": ["name", "email"], "title": "Person", "type": "object"}}, "description": "Book a meeting room.", "properties": {"title": {"maxLength": 200, "minLength": 1, "title": "Title", "type": "string"}, "start": {"format": "date-time", "title": "Start", "type": "string"}, "end": {"anyOf": [{"format": "date-time", "type": "string"}, {"type": "null"}], "default": null, "title": "End"}, "guests": {"exclusiveMinimum": 0, "maximum": 50, "title": "Guests", "type": "integer"}, "budget": {"anyOf": [{"minimum": 0, "type": "number"}, {"type": "null"}], "default": null, "title": "Budget"}, "organizer": {"$ref": "#/$defs/Person"}, "attendees": {"default": [], "items": {"$ref": "#/$defs/Person"}, "title": "Attendees", "type": "array"}, "address": {"anyOf": [{"$ref": "#/$defs/Address"}, {"type": "null"}], "default": null}, "notes": {"anyOf": [{"type": "string"}, {"type": "null"}], "default": null, "title": "Notes"}}, "required": ["title", "start", "guests", "organizer"], "title": "CreateBooking", "type": "object"}"##;

/// A valid `create_booking` call (~410 bytes).
pub const BOOKING_VALID: &str = r#"{"title":"Design review","start":"2025-07-01T09:30:00+02:00","end":"2025-07-01T10:30:00+02:00","guests":6,"budget":null,"organizer":{"name":"Ada Lovelace","email":"ada@example.com"},"attendees":[{"name":"Grace Hopper","email":"grace@navy.example.org"},{"name":"Alan Turing","email":"alan@example.co.uk"}],"address":{"street":"12 rue de la Paix","city":"Paris","postal_code":"75002"},"notes":"Bring the Q3 numbers"}"#;

/// An invalid `create_booking` call with five violations: `start` is not a date-time,
/// `guests` is not greater than 0, `organizer.email` is not an email, `attendees[1]`
/// lacks `name`, and `budget` matches neither branch of its `anyOf`.
pub const BOOKING_INVALID: &str = r#"{"title":"Design review","start":"2025-07-01 9:30","end":null,"guests":0,"budget":-5,"organizer":{"name":"Ada Lovelace","email":"ada at example"},"attendees":[{"name":"Grace Hopper","email":"grace@navy.example.org"},{"email":"alan@example.co.uk"}],"address":{"street":"12 rue de la Paix","city":"Paris","postal_code":"75002"},"notes":"Bring the Q3 numbers"}"#;

/// zod 4 `z.toJSONSchema(ChargePayment)`.
pub const PAYMENT_SCHEMA: &str = r#"{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"amount":{"type":"number","exclusiveMinimum":0},"currency":{"type":"string","minLength":3,"maxLength":3},"description":{"type":"string","maxLength":500},"payment":{"oneOf":[{"type":"object","properties":{"method":{"type":"string","const":"card"},"number":{"type":"string","pattern":"^\\d{12,19}$"},"exp_month":{"type":"integer","minimum":1,"maximum":12},"exp_year":{"type":"integer","minimum":2025,"maximum":2100},"cvc":{"type":"string","pattern":"^\\d{3,4}$"}},"required":["method","number","exp_month","exp_year","cvc"],"additionalProperties":false},{"type":"object","properties":{"method":{"type":"string","const":"bank_transfer"},"iban":{"type":"string","minLength":15,"maxLength":34},"bic":{"type":"string","minLength":8,"maxLength":11}},"required":["method","iban"],"additionalProperties":false},{"type":"object","properties":{"method":{"type":"string","const":"wallet"},"provider":{"type":"string","enum":["apple_pay","google_pay","paypal"]},"token":{"type":"string","minLength":1}},"required":["method","provider","token"],"additionalProperties":false}]},"metadata":{"type":"object","propertyNames":{"type":"string"},"additionalProperties":{"type":"string"}}},"required":["amount","currency","payment"],"additionalProperties":false}"#;

/// A valid `charge_payment` call (~210 bytes), the card branch.
pub const PAYMENT_VALID: &str = r#"{"amount":129.99,"currency":"EUR","description":"Annual plan","payment":{"method":"card","number":"4242424242424242","exp_month":8,"exp_year":2027,"cvc":"123"},"metadata":{"order_id":"A-1042","channel":"web"}}"#;

/// An invalid `charge_payment` call with five violations: `amount` is not greater than
/// 0, `currency` is too long, `payment` matches no branch (the card's `exp_month` is
/// 13), `metadata.channel` is not a string, and `coupon` is not allowed.
pub const PAYMENT_INVALID: &str = r#"{"amount":0,"currency":"EURO","description":"Annual plan","payment":{"method":"card","number":"4242424242424242","exp_month":13,"exp_year":2027,"cvc":"123"},"metadata":{"order_id":"A-1042","channel":5},"coupon":"SPRING"}"#;

/// zod-to-json-schema `zodToJsonSchema(SearchOrders, "SearchOrders")` (draft-07).
pub const ORDERS_SCHEMA: &str = r##"{"$ref":"#/definitions/SearchOrders","definitions":{"SearchOrders":{"type":"object","properties":{"customer_email":{"type":"string","format":"email"},"status":{"type":"array","items":{"type":"string","enum":["pending","paid","shipped","delivered","cancelled"]},"minItems":1},"placed_after":{"type":"string","format":"date-time"},"placed_before":{"anyOf":[{"type":"string","format":"date-time"},{"type":"null"}]},"min_total":{"type":"number","exclusiveMinimum":0},"limit":{"type":"integer","exclusiveMinimum":0,"maximum":100,"default":20},"shipping_address":{"type":"object","properties":{"country":{"type":"string","minLength":2,"maxLength":2},"postal_code":{"type":"string"}},"required":["country"],"additionalProperties":false},"billing_address":{"$ref":"#/definitions/SearchOrders/properties/shipping_address"},"sort":{"type":"object","properties":{"field":{"type":"string","enum":["placed_at","total"]},"direction":{"type":"string","enum":["asc","desc"],"default":"desc"}},"required":["field"],"additionalProperties":false}},"required":["customer_email"],"additionalProperties":false}},"$schema":"http://json-schema.org/draft-07/schema#"}"##;

/// A valid `search_orders` call (~290 bytes).
pub const ORDERS_VALID: &str = r#"{"customer_email":"ada@example.com","status":["paid","shipped"],"placed_after":"2025-01-01T00:00:00Z","placed_before":null,"min_total":10.5,"limit":50,"shipping_address":{"country":"FR","postal_code":"75002"},"billing_address":{"country":"FR"},"sort":{"field":"placed_at","direction":"desc"}}"#;

/// An invalid `search_orders` call with five violations: `customer_email` is not an
/// email, `status[1]` is not one of the values, `limit` is not greater than 0,
/// `billing_address.country` is too long, and `sort.direction` is not one of the values.
pub const ORDERS_INVALID: &str = r#"{"customer_email":"ada@","status":["paid","refunded"],"placed_after":"2025-01-01T00:00:00Z","placed_before":null,"min_total":10.5,"limit":0,"shipping_address":{"country":"FR","postal_code":"75002"},"billing_address":{"country":"FRA"},"sort":{"field":"placed_at","direction":"up"}}"#;

/// The violations in each invalid call.
pub const FULL_INVALID_VIOLATIONS: usize = 5;

pub const FULL_CASES: [Case; 6] = [
    Case {
        name: "create_booking (pydantic) valid",
        schema: BOOKING_SCHEMA,
        instance: BOOKING_VALID,
        valid: true,
    },
    Case {
        name: "create_booking (pydantic) invalid",
        schema: BOOKING_SCHEMA,
        instance: BOOKING_INVALID,
        valid: false,
    },
    Case {
        name: "charge_payment (zod 4 oneOf) valid",
        schema: PAYMENT_SCHEMA,
        instance: PAYMENT_VALID,
        valid: true,
    },
    Case {
        name: "charge_payment (zod 4 oneOf) invalid",
        schema: PAYMENT_SCHEMA,
        instance: PAYMENT_INVALID,
        valid: false,
    },
    Case {
        name: "search_orders (zod-to-json-schema, draft-07) valid",
        schema: ORDERS_SCHEMA,
        instance: ORDERS_VALID,
        valid: true,
    },
    Case {
        name: "search_orders (zod-to-json-schema, draft-07) invalid",
        schema: ORDERS_SCHEMA,
        instance: ORDERS_INVALID,
        valid: false,
    },
];
