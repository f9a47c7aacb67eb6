package fault

import (
	"encoding/json"
	"errors"
	"fmt"
	"testing"
)

func TestWireKeepsKindsAndField(t *testing.T) {
	sentinel := errors.New("wire test sentinel")
	Register("test.sentinel", sentinel)
	for _, err := range []error{
		fmt.Errorf("%w: %w: org is elsewhere", ErrUnavailable, sentinel),
		Payload("items[2].price", "must be a number"),
		fmt.Errorf("wrapped: %w", Invalid("name", "is required")),
	} {
		raw, _ := json.Marshal(ToWire(err))
		var w Wire
		if jerr := json.Unmarshal(raw, &w); jerr != nil {
			t.Fatal(jerr)
		}
		got := w.Err()
		if got == nil || got.Error() != err.Error() {
			t.Fatalf("text: got %v, want %v", got, err)
		}
		for _, kind := range []error{ErrUnavailable, sentinel, ErrPayload, ErrInvalid, ErrNotFound} {
			if errors.Is(got, kind) != errors.Is(err, kind) {
				t.Errorf("%v: errors.Is(%v) = %v after the trip", err, kind, errors.Is(got, kind))
			}
		}
		var want, have *FieldError
		if errors.As(err, &want) {
			if !errors.As(got, &have) || have.Field != want.Field || have.Msg != want.Msg {
				t.Errorf("field error lost: %#v", have)
			}
		}
	}
	if ToWire(nil).Err() != nil {
		t.Fatal("nil did not stay nil")
	}
}
