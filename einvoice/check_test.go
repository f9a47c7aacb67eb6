package einvoice

import (
	"strings"
	"testing"
)

// TestRefusals: bad data is refused with the rule, the business term and
// the field: wrong totals, a VAT category without its rate, a missing
// seller VAT identifier, an unknown currency or unit, and the German
// rules of XRechnung.
func TestRefusals(t *testing.T) {
	cases := []struct {
		name              string
		profile           Profile
		edit              func(*Invoice)
		rule, term, field string
	}{
		{"wrong line total", EN16931, func(i *Invoice) { i.Totals.LineTotal = D("100.00") }, "BR-CO-10", "BT-106", "totals.lineTotal"},
		{"wrong grand total", EN16931, func(i *Invoice) { i.Totals.GrandTotal = D("1.00") }, "BR-CO-15", "BT-112", "totals.grandTotal"},
		{"wrong due amount", Basic, func(i *Invoice) { i.Totals.Prepaid = D("10"); i.Totals.DuePayable = D("1.00") }, "BR-CO-16", "BT-115", "totals.duePayable"},
		{"wrong VAT amount", EN16931, func(i *Invoice) {
			i.VATBreakdown = []VAT{{Category: "S", Rate: D("19"), TaxableAmount: D("1220.00"), TaxAmount: D("300.00")}, {Category: "S", Rate: D("7"), TaxableAmount: D("74.70"), TaxAmount: D("5.23")}}
		}, "BR-CO-17", "BT-117", "vatBreakdown[0].taxAmount"},
		{"wrong taxable amount", EN16931, func(i *Invoice) {
			i.VATBreakdown = []VAT{{Category: "S", Rate: D("19"), TaxableAmount: D("1000.00"), TaxAmount: D("190.00")}, {Category: "S", Rate: D("7"), TaxableAmount: D("74.70"), TaxAmount: D("5.23")}}
		}, "BR-S-08", "BT-116", "vatBreakdown[0].taxableAmount"},
		{"standard rate without its rate", EN16931, func(i *Invoice) { i.Lines[1].VAT.Rate = Dec{} }, "BR-S-05", "BT-152", "lines[1].vat.rate"},
		{"zero rate with a rate", EN16931, func(i *Invoice) { i.Lines[0].VAT = LineVAT{Category: "Z", Rate: D("19")} }, "BR-Z-05", "BT-152", "lines[0].vat.rate"},
		{"exempt without a reason", EN16931, func(i *Invoice) {
			for k := range i.Lines {
				i.Lines[k].VAT = LineVAT{Category: "E", Rate: D("0")}
			}
			i.Allowances = nil
		}, "BR-E-10", "BT-120", "vatBreakdown[0].exemptionReason"},
		{"no seller VAT id", EN16931, func(i *Invoice) { i.Seller.VATID = "" }, "BR-S-02", "BT-31", "seller.vatId"},
		{"reverse charge without the buyer's VAT id", EN16931, func(i *Invoice) {
			for k := range i.Lines {
				i.Lines[k].VAT = LineVAT{Category: "AE", Rate: D("0"), ExemptionReason: "Reverse charge"}
			}
			i.Allowances = nil
			i.Buyer.VATID = ""
		}, "BR-AE-02", "BT-48", "buyer.vatId"},
		{"VAT id without a country", EN16931, func(i *Invoice) { i.Seller.VATID = "123456789" }, "BR-CO-09", "BT-31", "seller.vatId"},
		{"unknown currency", EN16931, func(i *Invoice) { i.Currency = "EUX" }, "BR-CL-04", "BT-5", "currency"},
		{"unknown unit", EN16931, func(i *Invoice) { i.Lines[2].Unit = "PIECES" }, "BR-CL-23", "BT-130", "lines[2].unit"},
		{"unknown country", EN16931, func(i *Invoice) { i.Buyer.Address.Country = "XX" }, "BR-CL-14", "BT-55", "buyer.address.country"},
		{"unknown payment means", EN16931, func(i *Invoice) { i.Payment.MeansCode = "999" }, "BR-CL-16", "BT-81", "payment.meansCode"},
		{"credit transfer without an account", EN16931, func(i *Invoice) { i.Payment.IBAN = "" }, "BR-61", "BT-84", "payment.iban"},
		{"three decimals", EN16931, func(i *Invoice) { i.Allowances[0].Amount = D("50.005") }, "", "BT-92", "allowances[0].amount"},
		{"no lines", Basic, func(i *Invoice) { i.Lines = nil }, "BR-16", "BG-25", "lines"},
		{"negative price", EN16931, func(i *Invoice) { i.Lines[0].Price = D("-1") }, "BR-27", "BT-146", "lines[0].price"},
		{"no due date or terms", EN16931, func(i *Invoice) { i.DueDate = ""; i.Payment.Terms = "" }, "BR-CO-25", "BT-9", "dueDate"},
		{"no buyer reference in XRechnung", XRechnung, func(i *Invoice) { i.BuyerReference = "" }, "BR-DE-15", "BT-10", "buyerReference"},
		{"no seller phone in XRechnung", XRechnung, func(i *Invoice) { i.Seller.Contact.Phone = "" }, "BR-DE-6", "BT-42", "seller.contact.phone"},
		{"bad date", EN16931, func(i *Invoice) { i.IssueDate = "30.11.2026" }, "", "BT-2", "issueDate"},
		{"rounding in BASIC", Basic, func(i *Invoice) { i.Totals.Rounding = D("0.09") }, "", "BT-114", "totals.rounding"},
		{"prepaid in MINIMUM", Minimum, func(i *Invoice) { i.Totals.Prepaid = D("10") }, "", "BT-113", "totals.prepaid"},
		{"three decimals in a given breakdown", EN16931, func(i *Invoice) {
			i.VATBreakdown = []VAT{{Category: "S", Rate: D("19"), TaxableAmount: D("1220.00"), TaxAmount: D("231.804")}, {Category: "S", Rate: D("7"), TaxableAmount: D("74.70"), TaxAmount: D("5.23")}}
		}, "BR-DEC-20", "BT-117", "vatBreakdown[0].taxAmount"},
		{"intra-community with a tax number only", EN16931, func(i *Invoice) {
			for k := range i.Lines {
				i.Lines[k].VAT = LineVAT{Category: "K", Rate: D("0"), ExemptionReason: "Intra-community supply"}
			}
			i.Allowances = nil
			i.Seller.VATID, i.Seller.TaxID = "", "201/113/40209"
			i.Delivery = &Delivery{Date: "2026-11-28", Address: &Address{Country: "FR"}}
		}, "BR-IC-02", "BT-31", "seller.vatId"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			inv := sample(t)
			c.edit(inv)
			vs := Prepare(inv, c.profile)
			for _, v := range vs {
				if v.Rule == c.rule && v.Term == c.term && v.Field == c.field {
					if !strings.Contains(v.Error(), c.term) || v.Msg == "" {
						t.Errorf("the message does not name the term: %q", v.Error())
					}
					return
				}
			}
			t.Errorf("want %s (%s) at %s, got %v", c.rule, c.term, c.field, vs)
		})
	}
}

// TestComputed: what the data leaves out is computed as EN 16931 says:
// line amounts, the allowance, the VAT breakdown by category and rate,
// and the totals, rounded to cents.
func TestComputed(t *testing.T) {
	inv := sample(t)
	if vs := Prepare(inv, EN16931); len(vs) > 0 {
		t.Fatal(vs)
	}
	want := map[string]string{
		"line 1": inv.Lines[0].NetAmount.Amount(), "line 2": inv.Lines[1].NetAmount.Amount(), "line 3": inv.Lines[2].NetAmount.Amount(),
		"lineTotal": inv.Totals.LineTotal.Amount(), "taxBasis": inv.Totals.TaxBasis.Amount(), "taxTotal": inv.Totals.TaxTotal.Amount(),
		"grandTotal": inv.Totals.GrandTotal.Amount(), "duePayable": inv.Totals.DuePayable.Amount(),
		"vat19": inv.VATBreakdown[0].TaxAmount.Amount(), "vat7": inv.VATBreakdown[1].TaxAmount.Amount(),
	}
	// 490 + 6.5 × 120 = 1270 at 19 %, less the 50 allowance: 1220 × 19 % = 231.80;
	// 3 × 24.90 = 74.70 at 7 %: 5.229 → 5.23.
	for k, v := range map[string]string{"line 1": "490.00", "line 2": "780.00", "line 3": "74.70", "lineTotal": "1344.70", "taxBasis": "1294.70",
		"vat19": "231.80", "vat7": "5.23", "taxTotal": "237.03", "grandTotal": "1531.73", "duePayable": "1531.73"} {
		if want[k] != v {
			t.Errorf("%s = %s, want %s", k, want[k], v)
		}
	}
	if len(inv.VATBreakdown) != 2 {
		t.Errorf("VAT breakdown has %d entries, want 2", len(inv.VATBreakdown))
	}
}

func TestRound2(t *testing.T) {
	for in, want := range map[string]string{"5.229": "5.23", "5.225": "5.23", "5.2249": "5.22", "-5.225": "-5.22", "-5.226": "-5.23", "0.005": "0.01", "7": "7.00"} {
		if got := D(in).Round2().Amount(); got != want {
			t.Errorf("Round2(%s) = %s, want %s", in, got, want)
		}
	}
	if _, err := ParseDec("1e5"); err == nil {
		t.Error("an exponent was accepted")
	}
	if d, err := ParseDec("64."); err != nil || d.String() != "64" {
		t.Errorf("64. read as %v, %v", d, err)
	}
}

// TestPartyIdentifierOrder: a party's identifiers without a scheme come
// before those with one, as the CII schema orders ID and GlobalID.
func TestPartyIdentifierOrder(t *testing.T) {
	inv := sample(t)
	inv.Seller.IDs = []Identifier{{ID: "4000001123452", Scheme: "0088"}, {ID: "SUP-1"}}
	if vs := Prepare(inv, EN16931); len(vs) > 0 {
		t.Fatal(vs)
	}
	x := string(XML(inv, EN16931))
	if i, j := strings.Index(x, "<ram:ID>SUP-1</ram:ID>"), strings.Index(x, `<ram:GlobalID schemeID="0088">`); i < 0 || j < 0 || i > j {
		t.Errorf("ID at %d, GlobalID at %d: the ID must come first", i, j)
	}
}
