package einvoice

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// Violation is a rule the invoice breaks: the EN 16931 rule (BR-…), the
// business term, the field of the JSON model that holds it, and what is
// wrong. Rule is empty for a check that is the model's own (a date's form).
type Violation struct {
	Rule  string `json:"rule,omitempty"`
	Term  string `json:"term"`
	Field string `json:"field"`
	Msg   string `json:"message"`
}

func (v Violation) Error() string {
	head := v.Term
	if v.Rule != "" {
		head = v.Rule + " (" + v.Term + ")"
	}
	return head + ": " + v.Msg
}

// checker gathers the violations of one invoice.
type checker struct {
	inv *Invoice
	p   Profile
	out []Violation
}

func (c *checker) fail(rule, term, field, format string, args ...any) {
	c.out = append(c.out, Violation{Rule: rule, Term: term, Field: field, Msg: fmt.Sprintf(format, args...)})
}

// Prepare completes the invoice (line identifiers, line net amounts,
// allowance amounts from their percentages, the VAT breakdown and the
// totals, where they were left out) and checks it against the rules of
// EN 16931 that Platen makes in Go, and the profile's own. It returns
// every violation, in the order of the model's fields; none means the
// invoice may be written.
func Prepare(inv *Invoice, p Profile) []Violation {
	c := &checker{inv: inv, p: p}
	if inv.TypeCode == "" {
		inv.TypeCode = "380"
	}
	c.header()
	c.party(&inv.Seller, "seller", true)
	c.party(&inv.Buyer, "buyer", false)
	if inv.TaxRepresentative != nil {
		c.party(inv.TaxRepresentative, "taxRepresentative", false)
		if inv.TaxRepresentative.VATID == "" {
			c.fail("BR-56", "BT-63", "taxRepresentative.vatId", "a seller's tax representative needs a VAT identifier")
		}
	}
	c.payment()
	if len(c.out) > 0 {
		return c.out // the sums below need well-formed numbers and codes
	}
	c.lines()
	c.documentAllowances()
	if len(c.out) > 0 {
		return c.out
	}
	c.breakdown()
	c.totals()
	c.vatCategories()
	c.german()
	return c.out
}

var isoDate = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)

// date checks a YYYY-MM-DD date; required says whether it must be there.
func (c *checker) date(v, rule, term, field string, required bool) {
	if v == "" {
		if required {
			c.fail(rule, term, field, "is required (YYYY-MM-DD)")
		}
		return
	}
	if _, err := time.Parse("2006-01-02", v); err != nil || !isoDate.MatchString(v) {
		c.fail("", term, field, "must be a date such as 2026-12-05, not %q", v)
	}
}

func (c *checker) header() {
	inv := c.inv
	if strings.TrimSpace(inv.Number) == "" {
		c.fail("BR-02", "BT-1", "number", "the invoice number is required")
	}
	if !typeCodes[inv.TypeCode] {
		c.fail("BR-CL-01", "BT-3", "typeCode", "%q is not a UNTDID 1001 invoice type code; 380 is a commercial invoice, 381 a credit note", inv.TypeCode)
	}
	c.date(inv.IssueDate, "BR-03", "BT-2", "issueDate", true)
	c.date(inv.DueDate, "", "BT-9", "dueDate", false)
	c.date(inv.TaxPoint, "", "BT-7", "taxPointDate", false)
	switch {
	case inv.Currency == "":
		c.fail("BR-05", "BT-5", "currency", "the invoice currency is required (an ISO 4217 code such as EUR)")
	case !currencies[inv.Currency]:
		c.fail("BR-CL-04", "BT-5", "currency", "%q is not an ISO 4217 currency code", inv.Currency)
	}
	for i, n := range inv.Notes {
		if strings.TrimSpace(n.Text) == "" {
			c.fail("", "BT-22", fmt.Sprintf("notes[%d].text", i), "a note needs its text")
		}
	}
	for i, pi := range inv.PrecedingInvoices {
		if pi.Number == "" {
			c.fail("BR-55", "BT-25", fmt.Sprintf("precedingInvoices[%d].number", i), "a preceding invoice reference needs the invoice's number")
		}
		c.date(pi.IssueDate, "", "BT-26", fmt.Sprintf("precedingInvoices[%d].issueDate", i), false)
	}
	if inv.Period != nil {
		c.period(inv.Period, "period", "BT-73", "BT-74", "BR-29")
	}
	if d := inv.Delivery; d != nil {
		c.date(d.Date, "", "BT-72", "delivery.date", false)
		if d.Address != nil {
			c.address(d.Address, "delivery.address", "BR-57", "BT-80")
		}
	}
}

func (c *checker) period(p *Period, field, startTerm, endTerm, rule string) {
	c.date(p.Start, "", startTerm, field+".start", false)
	c.date(p.End, "", endTerm, field+".end", false)
	if p.Start != "" && p.End != "" && p.End < p.Start {
		c.fail(rule, endTerm, field+".end", "the period ends (%s) before it starts (%s)", p.End, p.Start)
	}
}

func (c *checker) address(a *Address, field, rule, term string) {
	switch {
	case a.Country == "":
		c.fail(rule, term, field+".country", "the country is required (an ISO 3166-1 code such as DE)")
	case !countries[a.Country]:
		c.fail("BR-CL-14", term, field+".country", "%q is not an ISO 3166-1 alpha-2 country code", a.Country)
	}
}

// party checks the seller (seller true) or another party.
func (c *checker) party(pt *Party, field string, seller bool) {
	terms := map[string]string{"seller": "BT-27", "buyer": "BT-44", "taxRepresentative": "BT-62"}
	rules := map[string]string{"seller": "BR-06", "buyer": "BR-07", "taxRepresentative": "BR-18"}
	if strings.TrimSpace(pt.Name) == "" {
		c.fail(rules[field], terms[field], field+".name", "the %s's name is required", partyWord(field))
	}
	addrRule, countryRule, countryTerm := map[string]string{"seller": "BR-08", "buyer": "BR-10", "taxRepresentative": "BR-19"}[field],
		map[string]string{"seller": "BR-09", "buyer": "BR-11", "taxRepresentative": "BR-20"}[field],
		map[string]string{"seller": "BT-40", "buyer": "BT-55", "taxRepresentative": "BT-69"}[field]
	switch {
	case pt.Address == nil && (seller || c.p.has(BasicWL)):
		c.fail(addrRule, map[string]string{"seller": "BG-5", "buyer": "BG-8", "taxRepresentative": "BG-12"}[field], field+".address", "the %s's postal address is required, at least its country", partyWord(field))
	case pt.Address != nil:
		c.address(pt.Address, field+".address", countryRule, countryTerm)
	}
	for _, v := range []struct{ id, term, f string }{{pt.VATID, map[string]string{"seller": "BT-31", "buyer": "BT-48", "taxRepresentative": "BT-63"}[field], field + ".vatId"}} {
		if v.id != "" && (len(v.id) < 3 || !countries[v.id[:2]] && v.id[:2] != "EL" && v.id[:2] != "XI") {
			c.fail("BR-CO-09", v.term, v.f, "%q must start with the ISO 3166-1 code of its country, as DE123456789 does", v.id)
		}
	}
	if pt.Endpoint != nil && pt.Endpoint.ID == "" {
		c.fail("", map[bool]string{true: "BT-34", false: "BT-49"}[seller], field+".endpoint.id", "an electronic address needs its id; leave endpoint out when there is none")
	}
	if pt.LegalID != nil && pt.LegalID.ID == "" {
		c.fail("", map[bool]string{true: "BT-30", false: "BT-47"}[seller], field+".legalId.id", "a legal registration identifier needs its id; leave legalId out when there is none")
	}
	if pt.Endpoint != nil && pt.Endpoint.Scheme == "" {
		rule, term := "BR-62", "BT-34"
		if !seller {
			rule, term = "BR-63", "BT-49"
		}
		c.fail(rule, term, field+".endpoint.scheme", "an electronic address needs its scheme (EAS), EM for an e-mail address")
	}
	if seller && pt.VATID == "" && pt.LegalID == nil && len(pt.IDs) == 0 && c.p.has(BasicWL) {
		c.fail("BR-CO-26", "BT-29", field+".ids", "the seller needs an identifier, a legal registration identifier (legalId) or a VAT identifier (vatId)")
	}
}

func partyWord(field string) string {
	if field == "taxRepresentative" {
		return "tax representative"
	}
	return field
}

func (c *checker) payment() {
	pm := c.inv.Payment
	if pm == nil {
		return
	}
	if pm.MeansCode == "" && (pm.IBAN != "" || pm.MeansText != "" || pm.BIC != "" || pm.CardNumber != "" || pm.DebitedIBAN != "") {
		c.fail("BR-49", "BT-81", "payment.meansCode", "payment instructions need the payment means code (UNTDID 4461): 30 credit transfer, 58 SEPA credit transfer, 59 SEPA direct debit, 48 card")
	}
	if pm.MeansCode != "" && !paymentMeans[pm.MeansCode] {
		c.fail("BR-CL-16", "BT-81", "payment.meansCode", "%q is not a UNTDID 4461 payment means code", pm.MeansCode)
	}
	if (pm.MeansCode == "30" || pm.MeansCode == "58") && pm.IBAN == "" {
		c.fail("BR-61", "BT-84", "payment.iban", "a credit transfer (payment means %s) needs the account to pay into", pm.MeansCode)
	}
	if len(pm.CardNumber) > 6 {
		c.fail("BR-51", "BT-87", "payment.cardNumber", "give at most the last 6 digits of a card number, never the whole number")
	}
}

// twoPlaces refuses an amount with more than two decimals.
func (c *checker) twoPlaces(d Dec, rule, term, field string) {
	if d.Set() && d.Places() > 2 {
		c.fail(rule, term, field, "%s has more than two decimals", d)
	}
}

// lineVAT checks a VAT category and its rate (BR-CL-18, and each
// category's -05 rule).
func (c *checker) vatCode(cat string, rate Dec, term, field string) {
	if cat == "" {
		c.fail("BR-CO-04", term, field+".category", "every line needs its VAT category (UNTDID 5305: S standard, Z zero, E exempt, AE reverse charge, K intra-community, G export, O not subject)")
		return
	}
	if !vatCategories[cat] {
		c.fail("BR-CL-18", term, field+".category", "%q is not a UNTDID 5305 VAT category code", cat)
		return
	}
	fam := family(cat)
	switch {
	case cat == "S" && (!rate.Set() || rate.Sign() <= 0):
		c.fail("BR-S-05", "BT-152", field+".rate", "a standard-rated line needs its VAT rate, above zero")
	case cat == "O" && rate.Set() && term == "BT-151":
		c.fail("BR-O-05", "BT-152", field+".rate", "a line not subject to VAT has no VAT rate; leave rate out")
	case (cat == "Z" || cat == "E" || cat == "AE" || cat == "K" || cat == "G") && (!rate.Set() || rate.Sign() != 0):
		c.fail("BR-"+fam+"-05", "BT-152", field+".rate", "a line of VAT category %s needs the rate 0", cat)
	case (cat == "L" || cat == "M") && (!rate.Set() || rate.Sign() < 0):
		c.fail("BR-"+fam+"-05", "BT-152", field+".rate", "a line of VAT category %s needs its rate, zero or more", cat)
	}
}

// family is the rule family of a VAT category: BR-S-*, BR-IC-* for K, …
func family(cat string) string {
	switch cat {
	case "K":
		return "IC"
	case "L":
		return "IG"
	case "M":
		return "IP"
	}
	return cat
}

func (c *checker) allowanceCharge(a *AllowanceCharge, charge, document bool, field string) {
	amountTerm, baseTerm, reasonRule, amountRule, catRule := "BT-92", "BT-93", "BR-33", "BR-31", "BR-32"
	switch {
	case charge && document:
		amountTerm, baseTerm, reasonRule, amountRule, catRule = "BT-99", "BT-100", "BR-38", "BR-36", "BR-37"
	case !charge && !document:
		amountTerm, baseTerm, reasonRule, amountRule = "BT-136", "BT-137", "BR-42", "BR-41"
	case charge && !document:
		amountTerm, baseTerm, reasonRule, amountRule = "BT-141", "BT-142", "BR-44", "BR-43"
	}
	if !a.Amount.Set() && a.Percent.Set() && a.BaseAmount.Set() {
		a.Amount = a.BaseAmount.Mul(a.Percent).Quo(D("100")).Round2()
	}
	if !a.Amount.Set() {
		c.fail(amountRule, amountTerm, field+".amount", "the amount is required (or its percent and baseAmount)")
	}
	c.twoPlaces(a.Amount, "", amountTerm, field+".amount")
	c.twoPlaces(a.BaseAmount, "", baseTerm, field+".baseAmount")
	if a.Reason == "" && a.ReasonCode == "" {
		c.fail(reasonRule, amountTerm, field+".reason", "give a reason or a reasonCode")
	}
	if a.ReasonCode != "" {
		if charge && !chargeReasons[a.ReasonCode] {
			c.fail("BR-CL-20", amountTerm, field+".reasonCode", "%q is not a UNTDID 7161 charge reason code", a.ReasonCode)
		}
		if !charge && !allowanceReasons[a.ReasonCode] {
			c.fail("BR-CL-19", amountTerm, field+".reasonCode", "%q is not a UNTDID 5189 allowance reason code", a.ReasonCode)
		}
	}
	if document {
		if a.VATCategory == "" {
			c.fail(catRule, "BT-95", field+".vatCategory", "a document-level allowance or charge needs its VAT category")
			return
		}
		c.vatCode(a.VATCategory, a.VATRate, "BT-95", field+".vat")
	}
}

func (c *checker) lines() {
	inv := c.inv
	if len(inv.Lines) == 0 {
		if c.p.Lines() {
			c.fail("BR-16", "BG-25", "lines", "an invoice of the %s profile needs at least one line", c.p)
		} else if !inv.Totals.TaxBasis.Set() || !inv.Totals.GrandTotal.Set() {
			c.fail("BR-16", "BG-25", "lines", "give the invoice's lines, or its totals (taxBasis, taxTotal, grandTotal, duePayable) and VAT breakdown")
		}
	}
	for i := range inv.Lines {
		l := &inv.Lines[i]
		f := fmt.Sprintf("lines[%d]", i)
		if l.ID == "" {
			l.ID = strconv.Itoa(i + 1)
		}
		if strings.TrimSpace(l.Name) == "" {
			c.fail("BR-25", "BT-153", f+".name", "every line needs the item's name")
		}
		if !l.Quantity.Set() {
			c.fail("BR-22", "BT-129", f+".quantity", "every line needs its quantity")
		}
		switch {
		case l.Unit == "":
			c.fail("BR-23", "BT-130", f+".unit", "every line needs the quantity's unit (UN/ECE Rec 20: C62 one, H87 piece, HUR hour, DAY, KGM, MTR, LTR)")
		case !units[l.Unit]:
			c.fail("BR-CL-23", "BT-130", f+".unit", "%q is not a UN/ECE Recommendation 20 unit code", l.Unit)
		}
		switch {
		case !l.Price.Set():
			c.fail("BR-26", "BT-146", f+".price", "every line needs the item's net price")
		case l.Price.Sign() < 0:
			c.fail("BR-27", "BT-146", f+".price", "the item's net price may not be negative; a credit is a negative quantity")
		}
		if l.GrossPrice.Set() && l.GrossPrice.Sign() < 0 {
			c.fail("BR-28", "BT-148", f+".grossPrice", "the item's gross price may not be negative")
		}
		if l.BaseQuantity.Set() && l.BaseQuantity.Sign() <= 0 {
			c.fail("", "BT-149", f+".baseQuantity", "must be above zero")
		}
		if l.StandardID != nil && l.StandardID.Scheme == "" {
			c.fail("BR-64", "BT-157", f+".standardId.scheme", "an item standard identifier needs its scheme (0160 for a GTIN)")
		}
		if l.OriginCountry != "" && !countries[l.OriginCountry] {
			c.fail("BR-CL-14", "BT-159", f+".originCountry", "%q is not an ISO 3166-1 alpha-2 country code", l.OriginCountry)
		}
		if l.Period != nil {
			c.period(l.Period, f+".period", "BT-134", "BT-135", "BR-30")
		}
		c.vatCode(l.VAT.Category, l.VAT.Rate, "BT-151", f+".vat")
		for j := range l.Allowances {
			c.allowanceCharge(&l.Allowances[j], false, false, fmt.Sprintf("%s.allowances[%d]", f, j))
		}
		for j := range l.Charges {
			c.allowanceCharge(&l.Charges[j], true, false, fmt.Sprintf("%s.charges[%d]", f, j))
		}
		c.twoPlaces(l.NetAmount, "BR-DEC-23", "BT-131", f+".netAmount")
		if !l.Quantity.Set() || !l.Price.Set() {
			continue
		}
		base := l.BaseQuantity
		if !base.Set() {
			base = D("1")
		}
		net := l.Quantity.Mul(l.Price).Quo(base).Round2()
		for _, a := range l.Allowances {
			net = net.Sub(a.Amount)
		}
		for _, ch := range l.Charges {
			net = net.Add(ch.Amount)
		}
		// A net amount given is the seller's figure: EN 16931 does not tie
		// it to the quantity and price (a return may be a positive
		// quantity at a negative amount), so only its form is checked.
		if !l.NetAmount.Set() {
			l.NetAmount = net
		}
	}
}

func (c *checker) documentAllowances() {
	for i := range c.inv.Allowances {
		c.allowanceCharge(&c.inv.Allowances[i], false, true, fmt.Sprintf("allowances[%d]", i))
	}
	for i := range c.inv.Charges {
		c.allowanceCharge(&c.inv.Charges[i], true, true, fmt.Sprintf("charges[%d]", i))
	}
}

// group is one VAT category and rate of the invoice, summed.
type group struct {
	cat     string
	rate    Dec
	taxable Dec
	reason  string
	code    string
}

// groups sums the lines and the document-level allowances and charges by
// VAT category and rate, in the order they first appear.
func (c *checker) groups() []*group {
	var gs []*group
	find := func(cat string, rate Dec) *group {
		for _, g := range gs {
			if g.cat == cat && g.rate.Cmp(rate) == 0 && g.rate.Set() == rate.Set() {
				return g
			}
		}
		g := &group{cat: cat, rate: rate, taxable: D("0")}
		gs = append(gs, g)
		return g
	}
	for _, l := range c.inv.Lines {
		g := find(l.VAT.Category, l.VAT.Rate)
		g.taxable = g.taxable.Add(l.NetAmount)
		if g.reason == "" {
			g.reason = l.VAT.ExemptionReason
		}
		if g.code == "" {
			g.code = l.VAT.ExemptionReasonCode
		}
	}
	for _, a := range c.inv.Allowances {
		g := find(a.VATCategory, a.VATRate)
		g.taxable = g.taxable.Sub(a.Amount)
	}
	for _, ch := range c.inv.Charges {
		g := find(ch.VATCategory, ch.VATRate)
		g.taxable = g.taxable.Add(ch.Amount)
	}
	return gs
}

func taxOf(taxable, rate Dec) Dec {
	if !rate.Set() {
		return D("0")
	}
	return taxable.Mul(rate).Quo(D("100")).Round2()
}

// breakdown computes the VAT breakdown, or checks the one given against
// the lines (each category's -08 and -09 rules).
func (c *checker) breakdown() {
	inv := c.inv
	for i, v := range inv.VATBreakdown {
		f := fmt.Sprintf("vatBreakdown[%d]", i)
		c.twoPlaces(v.TaxableAmount, "BR-DEC-19", "BT-116", f+".taxableAmount")
		c.twoPlaces(v.TaxAmount, "BR-DEC-20", "BT-117", f+".taxAmount")
	}
	if len(inv.Lines) == 0 {
		// No lines (MINIMUM, BASIC WL): the breakdown is as given.
		for i, v := range inv.VATBreakdown {
			c.vatCode(v.Category, v.Rate, "BT-118", fmt.Sprintf("vatBreakdown[%d]", i))
		}
		return
	}
	gs := c.groups()
	if len(inv.VATBreakdown) == 0 {
		for _, g := range gs {
			inv.VATBreakdown = append(inv.VATBreakdown, VAT{Category: g.cat, Rate: g.rate, TaxableAmount: g.taxable, TaxAmount: taxOf(g.taxable, g.rate),
				ExemptionReason: g.reason, ExemptionReasonCode: g.code})
		}
		return
	}
	for i := range inv.VATBreakdown {
		v := &inv.VATBreakdown[i]
		f := fmt.Sprintf("vatBreakdown[%d]", i)
		c.vatCode(v.Category, v.Rate, "BT-118", f)
		var g *group
		for _, x := range gs {
			if x.cat == v.Category && x.rate.Cmp(v.Rate) == 0 {
				g = x
			}
		}
		fam := family(v.Category)
		if g == nil {
			c.fail("BR-"+fam+"-08", "BT-116", f+".taxableAmount", "no line, allowance or charge has VAT category %s at %s%%", v.Category, v.Rate)
			continue
		}
		if v.TaxableAmount.Cmp(g.taxable) != 0 {
			c.fail("BR-"+fam+"-08", "BT-116", f+".taxableAmount", "is %s, but the lines, allowances and charges of category %s at %s%% add up to %s", v.TaxableAmount.Amount(), v.Category, v.Rate, g.taxable.Amount())
		}
		want := taxOf(v.TaxableAmount, v.Rate)
		if v.TaxAmount.Sub(want).Abs().Cmp(D("1")) > 0 || (!v.Rate.Set() || v.Rate.Sign() == 0) && v.TaxAmount.Sign() != 0 {
			rule := "BR-" + fam + "-09"
			if v.Category == "S" {
				rule = "BR-CO-17"
			}
			c.fail(rule, "BT-117", f+".taxAmount", "is %s, but %s × %s%% is %s", v.TaxAmount.Amount(), v.TaxableAmount.Amount(), v.Rate, want.Amount())
		}
		if v.ExemptionReason == "" && v.ExemptionReasonCode == "" {
			v.ExemptionReason, v.ExemptionReasonCode = g.reason, g.code
		}
	}
	for _, g := range gs {
		found := false
		for _, v := range inv.VATBreakdown {
			found = found || v.Category == g.cat && v.Rate.Cmp(g.rate) == 0
		}
		if !found {
			c.fail("BR-"+family(g.cat)+"-01", "BG-23", "vatBreakdown", "has no entry for VAT category %s at %s%%, which the lines use", g.cat, g.rate)
		}
	}
}

// totals computes the document totals, or checks those given (BR-CO-10 to
// BR-CO-16).
func (c *checker) totals() {
	inv := c.inv
	t := &inv.Totals
	if t.Rounding.Set() && t.Rounding.Sign() != 0 && !c.p.has(EN16931) {
		c.fail("", "BT-114", "totals.rounding", "the %s profile cannot carry a rounding amount; use EN 16931 or leave rounding out", c.p)
	}
	if t.Prepaid.Set() && t.Prepaid.Sign() != 0 && !c.p.has(BasicWL) {
		c.fail("", "BT-113", "totals.prepaid", "the %s profile cannot carry a paid amount; use BASIC WL or above, or leave prepaid out", c.p)
	}
	for _, a := range []struct {
		d          Dec
		rule, term string
		f          string
	}{
		{t.LineTotal, "BR-DEC-09", "BT-106", "lineTotal"}, {t.AllowanceTotal, "BR-DEC-10", "BT-107", "allowanceTotal"},
		{t.ChargeTotal, "BR-DEC-11", "BT-108", "chargeTotal"}, {t.TaxBasis, "BR-DEC-12", "BT-109", "taxBasis"},
		{t.TaxTotal, "BR-DEC-13", "BT-110", "taxTotal"}, {t.GrandTotal, "BR-DEC-14", "BT-112", "grandTotal"},
		{t.Prepaid, "BR-DEC-16", "BT-113", "prepaid"}, {t.Rounding, "BR-DEC-17", "BT-114", "rounding"},
		{t.DuePayable, "BR-DEC-18", "BT-115", "duePayable"},
	} {
		c.twoPlaces(a.d, a.rule, a.term, "totals."+a.f)
	}
	// fill sets an absent total to what it should be, or checks it.
	fill := func(d *Dec, want Dec, rule, term, f, how string) {
		if !d.Set() {
			*d = want
			return
		}
		if d.Cmp(want) != 0 {
			c.fail(rule, term, "totals."+f, "is %s, but %s is %s", d.Amount(), how, want.Amount())
		}
	}
	if len(inv.Lines) > 0 {
		sum := D("0")
		for _, l := range inv.Lines {
			sum = sum.Add(l.NetAmount)
		}
		fill(&t.LineTotal, sum, "BR-CO-10", "BT-106", "lineTotal", "the sum of the lines' net amounts")
	} else if !t.LineTotal.Set() && c.p.has(BasicWL) {
		c.fail("BR-12", "BT-106", "totals.lineTotal", "the sum of the lines' net amounts is required")
	}
	if len(inv.Allowances) > 0 || t.AllowanceTotal.Set() {
		sum := D("0")
		for _, a := range inv.Allowances {
			sum = sum.Add(a.Amount)
		}
		fill(&t.AllowanceTotal, sum, "BR-CO-11", "BT-107", "allowanceTotal", "the sum of the document-level allowances")
	}
	if len(inv.Charges) > 0 || t.ChargeTotal.Set() {
		sum := D("0")
		for _, a := range inv.Charges {
			sum = sum.Add(a.Amount)
		}
		fill(&t.ChargeTotal, sum, "BR-CO-12", "BT-108", "chargeTotal", "the sum of the document-level charges")
	}
	if t.LineTotal.Set() {
		fill(&t.TaxBasis, t.LineTotal.Sub(t.AllowanceTotal).Add(t.ChargeTotal), "BR-CO-13", "BT-109", "taxBasis", "lineTotal − allowanceTotal + chargeTotal")
	} else if !t.TaxBasis.Set() {
		c.fail("BR-13", "BT-109", "totals.taxBasis", "the invoice total without VAT is required")
	}
	if len(inv.VATBreakdown) > 0 {
		sum := D("0")
		for _, v := range inv.VATBreakdown {
			sum = sum.Add(v.TaxAmount)
		}
		fill(&t.TaxTotal, sum, "BR-CO-14", "BT-110", "taxTotal", "the sum of the VAT breakdown's tax amounts")
	} else if c.p.has(BasicWL) {
		c.fail("BR-CO-18", "BG-23", "vatBreakdown", "the invoice needs at least one VAT breakdown")
	}
	if !t.TaxTotal.Set() {
		t.TaxTotal = D("0")
	}
	fill(&t.GrandTotal, t.TaxBasis.Add(t.TaxTotal), "BR-CO-15", "BT-112", "grandTotal", "taxBasis + taxTotal")
	fill(&t.DuePayable, t.GrandTotal.Sub(t.Prepaid).Add(t.Rounding), "BR-CO-16", "BT-115", "duePayable", "grandTotal − prepaid + rounding")
	pm := inv.Payment
	if t.DuePayable.Sign() > 0 && inv.DueDate == "" && (pm == nil || pm.Terms == "") && c.p.has(BasicWL) {
		c.fail("BR-CO-25", "BT-9", "dueDate", "an invoice with an amount due needs a due date (dueDate) or payment terms (payment.terms)")
	}
}

// vatCategories checks the rules that tie a VAT category to the parties:
// each category's -02 (who needs a VAT identifier), -10 (exemption
// reasons) and intra-community supply's delivery rules.
func (c *checker) vatCategories() {
	inv := c.inv
	sellerVATID := inv.Seller.VATID != "" || inv.TaxRepresentative != nil && inv.TaxRepresentative.VATID != ""
	sellerVAT := sellerVATID || inv.Seller.TaxID != ""
	used := map[string]bool{}
	for _, l := range inv.Lines {
		used[l.VAT.Category] = true
	}
	for _, a := range inv.Allowances {
		used[a.VATCategory] = true
	}
	for _, a := range inv.Charges {
		used[a.VATCategory] = true
	}
	for _, v := range inv.VATBreakdown {
		used[v.Category] = true
	}
	for _, cat := range []string{"S", "Z", "E", "AE", "K", "G", "L", "M", "O"} {
		if !used[cat] {
			continue
		}
		fam := family(cat)
		switch cat {
		case "O":
			if inv.Seller.VATID != "" || inv.Buyer.VATID != "" || inv.TaxRepresentative != nil && inv.TaxRepresentative.VATID != "" {
				c.fail("BR-O-02", "BT-31", "seller.vatId", "an invoice with lines not subject to VAT (O) carries no VAT identifiers")
			}
		case "AE", "K":
			if cat == "K" && !sellerVATID || !sellerVAT {
				c.fail("BR-"+fam+"-02", "BT-31", "seller.vatId", "VAT category %s needs the seller's VAT identifier", cat)
			}
			if inv.Buyer.VATID == "" && (cat == "K" || inv.Buyer.LegalID == nil) {
				c.fail("BR-"+fam+"-02", "BT-48", "buyer.vatId", "VAT category %s needs the buyer's VAT identifier", cat)
			}
		case "G":
			if !sellerVATID && c.p.has(BasicWL) {
				c.fail("BR-G-02", "BT-31", "seller.vatId", "an export outside the EU needs the seller's VAT identifier (vatId)")
			}
		default:
			if !sellerVAT && c.p.has(BasicWL) {
				c.fail("BR-"+fam+"-02", "BT-31", "seller.vatId", "VAT category %s needs the seller's VAT identifier (vatId) or tax registration (taxId)", cat)
			}
		}
		if cat == "K" {
			if inv.Delivery == nil || inv.Delivery.Date == "" && inv.Period == nil {
				c.fail("BR-IC-11", "BT-72", "delivery.date", "an intra-community supply needs the delivery date or the invoicing period")
			}
			if inv.Delivery == nil || inv.Delivery.Address == nil {
				c.fail("BR-IC-12", "BT-80", "delivery.address.country", "an intra-community supply needs the country it was delivered to")
			}
		}
	}
	for i := range inv.VATBreakdown {
		v := &inv.VATBreakdown[i]
		f := fmt.Sprintf("vatBreakdown[%d]", i)
		exempt := v.ExemptionReason != "" || v.ExemptionReasonCode != ""
		switch v.Category {
		case "S", "Z", "L", "M":
			if exempt {
				c.fail("BR-"+family(v.Category)+"-10", "BT-120", f+".exemptionReason", "VAT category %s has no exemption reason", v.Category)
			}
		case "E", "AE", "K", "G", "O":
			if !exempt {
				c.fail("BR-"+family(v.Category)+"-10", "BT-120", f+".exemptionReason", "VAT category %s needs an exemption reason or code (give exemptionReason on the lines' vat, or in vatBreakdown)", v.Category)
			}
		}
		v.ExemptionReasonCode = strings.ToUpper(v.ExemptionReasonCode)
		if v.ExemptionReasonCode != "" && !exemptionCodes[v.ExemptionReasonCode] {
			c.fail("BR-CL-22", "BT-121", f+".exemptionReasonCode", "%q is not a VATEX code", v.ExemptionReasonCode)
		}
	}
}

// german is XRechnung's own rules (the German CIUS, BR-DE-*), which the
// EN 16931 artefacts do not check.
func (c *checker) german() {
	if c.p != XRechnung {
		return
	}
	inv := c.inv
	if inv.BuyerReference == "" {
		c.fail("BR-DE-15", "BT-10", "buyerReference", "XRechnung needs the buyer reference (the Leitweg-ID for a public buyer)")
	}
	if inv.Payment == nil || inv.Payment.MeansCode == "" {
		c.fail("BR-DE-1", "BG-16", "payment.meansCode", "XRechnung needs payment instructions with their payment means code")
	}
	s := inv.Seller
	if s.Contact == nil || s.Contact.Name == "" {
		c.fail("BR-DE-5", "BT-41", "seller.contact.name", "XRechnung needs the seller's contact person or department")
	}
	if s.Contact == nil || s.Contact.Phone == "" {
		c.fail("BR-DE-6", "BT-42", "seller.contact.phone", "XRechnung needs the seller contact's telephone number")
	}
	if s.Contact == nil || s.Contact.Email == "" {
		c.fail("BR-DE-7", "BT-43", "seller.contact.email", "XRechnung needs the seller contact's e-mail address")
	}
	if s.Address != nil && s.Address.City == "" {
		c.fail("BR-DE-3", "BT-37", "seller.address.city", "XRechnung needs the seller's city")
	}
	if s.Address != nil && s.Address.PostCode == "" {
		c.fail("BR-DE-4", "BT-38", "seller.address.postCode", "XRechnung needs the seller's post code")
	}
	if b := inv.Buyer.Address; b != nil && b.City == "" {
		c.fail("BR-DE-8", "BT-52", "buyer.address.city", "XRechnung needs the buyer's city")
	}
	if b := inv.Buyer.Address; b != nil && b.PostCode == "" {
		c.fail("BR-DE-9", "BT-53", "buyer.address.postCode", "XRechnung needs the buyer's post code")
	}
	if s.Endpoint == nil {
		c.fail("", "BT-34", "seller.endpoint", "XRechnung needs the seller's electronic address (for example an e-mail address with scheme EM)")
	}
	if inv.Buyer.Endpoint == nil {
		c.fail("", "BT-49", "buyer.endpoint", "XRechnung needs the buyer's electronic address (for example an e-mail address with scheme EM)")
	}
}
