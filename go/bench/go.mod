module toolgate/bench

go 1.24

require (
	github.com/google/jsonschema-go v0.4.3
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.3
	toolgate v0.0.0
)

require golang.org/x/text v0.14.0 // indirect

replace toolgate => ../
