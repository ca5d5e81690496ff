//! `is_valid` allocates nothing on valid input: counted with a global allocator.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use toolgate::Schema;

struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every method forwards to `System` with the caller's arguments unchanged;
// the counter is an atomic with no effect on the memory handed out.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::SeqCst);
        // SAFETY: same contract as our caller's.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from `System.alloc` above with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::SeqCst);
        // SAFETY: same contract as our caller's.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

const REALISTIC: &str = r#"{"type":"object","properties":{
  "title":{"type":"string","minLength":1,"maxLength":120},
  "start":{"type":"string","pattern":"^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}$"},
  "duration_minutes":{"type":"integer","minimum":5,"maximum":480},
  "attendees":{"type":"array","maxItems":20,"items":{"type":"object","properties":{
      "email":{"type":"string","pattern":"^[^@\\s]+@[^@\\s]+$"},
      "optional":{"type":"boolean"}},"required":["email"],"additionalProperties":false}},
  "location":{"anyOf":[{"type":"string"},{"type":"null"}]},
  "priority":{"enum":["low","normal","high"]},
  "reminder":{"const":true},
  "budget":{"type":"number","minimum":0}},
 "required":["title","start"],"additionalProperties":false}"#;

#[test]
fn is_valid_allocates_nothing_on_valid_input() {
    let weather = Schema::compile(br#"{"type": "object","properties": {"city": {"type": "string", "minLength": 1},"days": {"type": "integer", "minimum": 1, "maximum": 7},"unit": {"enum": ["c", "f"]}},"required": ["city"], "additionalProperties": false}"#).unwrap();
    let realistic = Schema::compile(REALISTIC.as_bytes()).unwrap();
    let cases: [(&Schema, &[u8]); 4] = [
        (&weather, br#"{"city":"Paris","days":3}"#),
        (&weather, br#"{"city":"Zurich","unit":"c","days":7}"#),
        (
            &realistic,
            br#"{"title":"Design review","start":"2026-12-01T10:30","duration_minutes":45,
            "attendees":[{"email":"ana@example.com"},{"email":"bo@example.org","optional":true}],
            "location":null,"priority":"high","reminder":true,"budget":12.5}"#,
        ),
        (
            &weather,
            b" {\n  \"unit\" : \"f\", \"city\" : \"Caf\\u00e9\"\n} ",
        ),
    ];
    for (s, input) in cases {
        assert!(s.is_valid(input));
        let before = ALLOCATIONS.load(Ordering::SeqCst);
        for _ in 0..100 {
            assert!(s.is_valid(input));
        }
        let after = ALLOCATIONS.load(Ordering::SeqCst);
        assert_eq!(
            after - before,
            0,
            "is_valid allocated on {}",
            String::from_utf8_lossy(input)
        );
    }
    // The counter works: validate_json on an invalid input allocates.
    let before = ALLOCATIONS.load(Ordering::SeqCst);
    assert!(!weather.validate_json(br#"{"days":"3"}"#).is_empty());
    assert!(ALLOCATIONS.load(Ordering::SeqCst) > before);
}
