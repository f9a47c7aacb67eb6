package pdf

import (
	"strings"
	"testing"
)

func TestContentTokens(t *testing.T) {
	got := strings.Join(contentTokens([]byte("/P<</MCID 0>>BDC BT (a\\) (b)) Tj [(x) -3 (y)] TJ ET EMC /Artifact BMC 0 0 1 1 re f EMC")), "|")
	want := "/P|<</MCID 0>>|BDC|BT|(a\\) (b))|Tj|[(x) -3 (y)]|TJ|ET|EMC|/Artifact|BMC|0|0|1|1|re|f|EMC"
	if got != want {
		t.Fatalf("tokens\n%s\nwant\n%s", got, want)
	}
}

func TestContentMarks(t *testing.T) {
	for _, c := range []struct {
		content, fails string
	}{
		{"/P<</MCID 0>>BDC BT (a) Tj ET EMC /Artifact BMC 0 0 1 1 re f EMC", ""},
		{"BT (a) Tj ET", "7.1-3"},
		{"/P<</MCID 0>>BDC /Artifact BMC 0 0 1 1 re f EMC EMC", "7.1-1"},
		{"/Artifact BMC /P<</MCID 0>>BDC BT (a) Tj ET EMC EMC", "7.1-2"},
		{"/Artifact <</Type /Pagination>> BDC q /Fm0 Do Q EMC", ""},
	} {
		ch := &uaChecker{fails: map[string]string{}}
		ch.content([]byte(c.content), 1)
		if _, failed := ch.fails[c.fails]; c.fails != "" && !failed || c.fails == "" && len(ch.fails) > 0 {
			t.Errorf("%q: %v, want %q to fail", c.content, ch.fails, c.fails)
		}
	}
}

func FuzzContentTokens(f *testing.F) {
	f.Add([]byte("/P<</MCID 0>>BDC BT (a) Tj ET EMC"))
	f.Add([]byte("<<(((<>>[ ( ID xx EI"))
	f.Fuzz(func(t *testing.T, b []byte) {
		ch := &uaChecker{fails: map[string]string{}}
		ch.content(b, 1)
	})
}
