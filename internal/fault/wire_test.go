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

func TestViolationsCrossTheWireWhole(t *testing.T) {
	var c Collect
	c.Add(Payload("total", "is required"))
	c.Add(Payload("items[0].price", "must be a number, not string"))
	c.Add(Payload("customer.email", "must be an email address like name@example.com"))
	err := fmt.Errorf("wrapped: %w", c.Err())
	raw, _ := json.Marshal(ToWire(err))
	var w Wire
	if jerr := json.Unmarshal(raw, &w); jerr != nil {
		t.Fatal(jerr)
	}
	got := w.Err()
	if got.Error() != err.Error() || !errors.Is(got, ErrPayload) {
		t.Fatalf("got %v (payload: %v)", got, errors.Is(got, ErrPayload))
	}
	var fe *FieldError
	if !errors.As(got, &fe) || fe.Field != "total" {
		t.Errorf("the first violation is %+v; want total", fe)
	}
	var vs Violations
	if !errors.As(got, &vs) || len(vs) != 3 || vs[2].Field != "customer.email" || vs[1].Msg != "must be a number, not string" {
		t.Errorf("violations after the trip: %+v", vs)
	}
}

func TestOneViolationStaysAList(t *testing.T) {
	var c Collect
	c.Add(Payload("total", "is required"))
	raw, _ := json.Marshal(ToWire(c.Err()))
	var w Wire
	json.Unmarshal(raw, &w)
	var vs Violations
	if !errors.As(w.Err(), &vs) || len(vs) != 1 || vs[0].Field != "total" {
		t.Errorf("one violation after the trip: %#v", w.Err())
	}
}

func TestCollectStopsAtItsCap(t *testing.T) {
	var c Collect
	if c.Err() != nil {
		t.Fatal("an empty Collect is an error")
	}
	for i := 0; i < MaxViolations+10; i++ {
		c.Add(Invalid(fmt.Sprintf("f%d", i), "is wrong"))
	}
	var vs Violations
	if !errors.As(c.Err(), &vs) || len(vs) != MaxViolations || !c.Full() {
		t.Fatalf("kept %d; want %d", len(vs), MaxViolations)
	}
	if want := fmt.Sprintf("f0: is wrong (and %d more)", MaxViolations-1); c.Err().Error() != want {
		t.Errorf("text %q; want %q", c.Err(), want)
	}
}
