// Package schema checks caller data against a template's dataSchema before
// anything is rendered (spec "Manifest": "Every payload is checked against
// the dataSchema before rendering; a failure names the offending field").
//
// A schema is a map from field name to Field. Parse checks the schema itself
// when a template version is saved; Validate checks data and returns a
// fault.ErrPayload refusal whose field is the path of the first bad value,
// such as items[3].price. Fields are visited in name order, so the same data
// always names the same field.
//
// min and max (docs/design.md "Schema"): string and email, length in characters; number,
// value; array, item count; date (ISO 8601), earliest and latest date.
package schema
