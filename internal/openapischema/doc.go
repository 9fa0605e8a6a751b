// Package openapischema turns OpenAPI 3.0 schema documents into JSON
// Schema that a validator (jsonschema/v6) takes, for the tests that check
// our goosed wire format against goose's OpenAPI specs.
package openapischema
