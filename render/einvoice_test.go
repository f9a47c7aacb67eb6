package render

import "testing"

// TestWithPathKeepsOtherKeys: the completed invoice is laid over the data
// at its path, and the data's other keys stay for the template.
func TestWithPathKeepsOtherKeys(t *testing.T) {
	data := map[string]any{"footer": "Thank you", "number": "old", "order": map[string]any{"invoice": map[string]any{"number": "A", "note": "keep"}, "ref": "R"}}
	whole := withPath(data, "", map[string]any{"number": "INV-1", "totals": map[string]any{}})
	if whole["footer"] != "Thank you" || whole["number"] != "INV-1" || whole["totals"] == nil {
		t.Errorf("whole data: %v", whole)
	}
	nested := withPath(data, "order.invoice", map[string]any{"number": "INV-2"})
	order := nested["order"].(map[string]any)
	inv := order["invoice"].(map[string]any)
	if nested["footer"] != "Thank you" || order["ref"] != "R" || inv["number"] != "INV-2" || inv["note"] != "keep" {
		t.Errorf("nested: %v", nested)
	}
	if data["order"].(map[string]any)["invoice"].(map[string]any)["number"] != "A" {
		t.Error("the caller's data was changed")
	}
}
