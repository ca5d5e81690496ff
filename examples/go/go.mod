module weather

go 1.24

require toolgate v0.0.0

// The binding is not fetched from a module proxy: its module path is toolgate (no
// domain), so it is replaced by the go/ folder of a toolgate checkout.
replace toolgate => ../../go
