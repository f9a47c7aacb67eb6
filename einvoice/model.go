package einvoice

// Invoice is an invoice in EN 16931's terms, as JSON (docs/einvoices.md
// lists every field with its business term). A template's data holds one,
// at the path its manifest names. The totals, the VAT breakdown and the
// line amounts may be left out: Complete computes them. Where they are
// given, Check holds them to the standard's rules.
type Invoice struct {
	Number    string `json:"number"`                 // BT-1
	TypeCode  string `json:"typeCode,omitempty"`     // BT-3; 380 (commercial invoice) when empty
	IssueDate string `json:"issueDate"`              // BT-2, YYYY-MM-DD
	DueDate   string `json:"dueDate,omitempty"`      // BT-9
	Currency  string `json:"currency"`               // BT-5
	TaxPoint  string `json:"taxPointDate,omitempty"` // BT-7
	Notes     []Note `json:"notes,omitempty"`        // BG-1
	// References the buyer asks to see on the invoice.
	BuyerReference           string             `json:"buyerReference,omitempty"`           // BT-10 (XRechnung's Leitweg-ID)
	ProjectReference         string             `json:"projectReference,omitempty"`         // BT-11
	ContractReference        string             `json:"contractReference,omitempty"`        // BT-12
	OrderReference           string             `json:"orderReference,omitempty"`           // BT-13
	SalesOrderReference      string             `json:"salesOrderReference,omitempty"`      // BT-14
	DespatchReference        string             `json:"despatchReference,omitempty"`        // BT-16
	ReceivingReference       string             `json:"receivingReference,omitempty"`       // BT-15
	BuyerAccountingReference string             `json:"buyerAccountingReference,omitempty"` // BT-19
	PrecedingInvoices        []PrecedingInvoice `json:"precedingInvoices,omitempty"`        // BG-3

	Seller            Party     `json:"seller"`                      // BG-4
	Buyer             Party     `json:"buyer"`                       // BG-7
	Payee             *Payee    `json:"payee,omitempty"`             // BG-10
	TaxRepresentative *Party    `json:"taxRepresentative,omitempty"` // BG-11
	Delivery          *Delivery `json:"delivery,omitempty"`          // BG-13
	Period            *Period   `json:"period,omitempty"`            // BG-14
	Payment           *Payment  `json:"payment,omitempty"`           // BG-16, BT-20

	Lines        []Line            `json:"lines"`                  // BG-25
	Allowances   []AllowanceCharge `json:"allowances,omitempty"`   // BG-20
	Charges      []AllowanceCharge `json:"charges,omitempty"`      // BG-21
	VATBreakdown []VAT             `json:"vatBreakdown,omitempty"` // BG-23
	Totals       Totals            `json:"totals"`                 // BG-22
}

// Note is a note on the invoice (BG-1).
type Note struct {
	Subject string `json:"subject,omitempty"` // BT-21, a UNTDID 4451 code such as AAI
	Text    string `json:"text"`              // BT-22
}

// PrecedingInvoice is an invoice this one corrects or credits (BG-3).
type PrecedingInvoice struct {
	Number    string `json:"number"`              // BT-25
	IssueDate string `json:"issueDate,omitempty"` // BT-26
}

// Party is the seller, the buyer or the seller's tax representative.
type Party struct {
	Name        string       `json:"name"`                  // BT-27, BT-44, BT-62
	TradingName string       `json:"tradingName,omitempty"` // BT-28, BT-45
	IDs         []Identifier `json:"ids,omitempty"`         // BT-29, BT-46
	LegalID     *Identifier  `json:"legalId,omitempty"`     // BT-30, BT-47
	VATID       string       `json:"vatId,omitempty"`       // BT-31, BT-48, BT-63
	TaxID       string       `json:"taxId,omitempty"`       // BT-32 (the seller's tax registration, FC)
	LegalInfo   string       `json:"legalInfo,omitempty"`   // BT-33
	Endpoint    *Identifier  `json:"endpoint,omitempty"`    // BT-34, BT-49 (electronic address; scheme EM for e-mail)
	Address     *Address     `json:"address,omitempty"`     // BG-5, BG-8, BG-12
	Contact     *Contact     `json:"contact,omitempty"`     // BG-6, BG-9
}

// Identifier is an identifier with an optional scheme (ISO 6523 ICD, or
// EAS for an electronic address).
type Identifier struct {
	ID     string `json:"id"`
	Scheme string `json:"scheme,omitempty"`
}

// Address is a postal address.
type Address struct {
	Line1    string `json:"line1,omitempty"`    // BT-35
	Line2    string `json:"line2,omitempty"`    // BT-36
	Line3    string `json:"line3,omitempty"`    // BT-162
	City     string `json:"city,omitempty"`     // BT-37
	PostCode string `json:"postCode,omitempty"` // BT-38
	Region   string `json:"region,omitempty"`   // BT-39
	Country  string `json:"country"`            // BT-40, ISO 3166-1 alpha-2
}

// Contact is a person to ask about the invoice.
type Contact struct {
	Name  string `json:"name,omitempty"`  // BT-41, BT-56
	Phone string `json:"phone,omitempty"` // BT-42, BT-57
	Email string `json:"email,omitempty"` // BT-43, BT-58
}

// Payee is who receives the payment, when it is not the seller (BG-10).
type Payee struct {
	Name    string      `json:"name"`              // BT-59
	ID      *Identifier `json:"id,omitempty"`      // BT-60
	LegalID *Identifier `json:"legalId,omitempty"` // BT-61
}

// Delivery is where and when the goods or services were delivered (BG-13).
type Delivery struct {
	Name    string   `json:"name,omitempty"`    // BT-70
	Date    string   `json:"date,omitempty"`    // BT-72
	Address *Address `json:"address,omitempty"` // BG-15
}

// Period is an invoicing period (BG-14, BG-26).
type Period struct {
	Start string `json:"start,omitempty"` // BT-73, BT-134
	End   string `json:"end,omitempty"`   // BT-74, BT-135
}

// Payment is how to pay (BG-16) and the terms (BT-20).
type Payment struct {
	MeansCode   string `json:"meansCode,omitempty"`   // BT-81, UNTDID 4461: 30 credit transfer, 58 SEPA credit transfer, 59 SEPA direct debit, 48 card
	MeansText   string `json:"meansText,omitempty"`   // BT-82
	Reference   string `json:"reference,omitempty"`   // BT-83 (remittance information)
	IBAN        string `json:"iban,omitempty"`        // BT-84 (or another account identifier)
	AccountName string `json:"accountName,omitempty"` // BT-85
	BIC         string `json:"bic,omitempty"`         // BT-86
	CardNumber  string `json:"cardNumber,omitempty"`  // BT-87 (the last digits only)
	CardHolder  string `json:"cardHolder,omitempty"`  // BT-88
	MandateID   string `json:"mandateId,omitempty"`   // BT-89
	CreditorID  string `json:"creditorId,omitempty"`  // BT-90
	DebitedIBAN string `json:"debitedIban,omitempty"` // BT-91
	Terms       string `json:"terms,omitempty"`       // BT-20
}

// Line is an invoice line (BG-25).
type Line struct {
	ID                 string            `json:"id,omitempty"`                 // BT-126; its position when empty
	Note               string            `json:"note,omitempty"`               // BT-127
	Name               string            `json:"name"`                         // BT-153
	Description        string            `json:"description,omitempty"`        // BT-154
	SellerItemID       string            `json:"sellerItemId,omitempty"`       // BT-155
	BuyerItemID        string            `json:"buyerItemId,omitempty"`        // BT-156
	StandardID         *Identifier       `json:"standardId,omitempty"`         // BT-157 (a GTIN is scheme 0160)
	OriginCountry      string            `json:"originCountry,omitempty"`      // BT-159
	OrderLineReference string            `json:"orderLineReference,omitempty"` // BT-132
	Quantity           Dec               `json:"quantity"`                     // BT-129
	Unit               string            `json:"unit"`                         // BT-130, UN/ECE Rec 20: C62 one, H87 piece, HUR hour, DAY, KGM, MTR, LTR
	Price              Dec               `json:"price"`                        // BT-146, net of any price discount
	BaseQuantity       Dec               `json:"baseQuantity,omitempty"`       // BT-149; the price is for this many units (1 when absent)
	GrossPrice         Dec               `json:"grossPrice,omitempty"`         // BT-148
	PriceDiscount      Dec               `json:"priceDiscount,omitempty"`      // BT-147
	VAT                LineVAT           `json:"vat"`                          // BG-30
	Period             *Period           `json:"period,omitempty"`             // BG-26
	Allowances         []AllowanceCharge `json:"allowances,omitempty"`         // BG-27
	Charges            []AllowanceCharge `json:"charges,omitempty"`            // BG-28
	NetAmount          Dec               `json:"netAmount,omitempty"`          // BT-131; computed when absent
}

// LineVAT is a line's VAT category and rate (BG-30).
type LineVAT struct {
	Category string `json:"category"`       // BT-151, UNTDID 5305: S, Z, E, AE, K, G, O, L, M
	Rate     Dec    `json:"rate,omitempty"` // BT-152, percent
	// The exemption's reason and code (BT-120, BT-121), carried to the
	// computed VAT breakdown of the line's category.
	ExemptionReason     string `json:"exemptionReason,omitempty"`
	ExemptionReasonCode string `json:"exemptionReasonCode,omitempty"`
}

// AllowanceCharge is a discount or a surcharge, on the invoice (BG-20,
// BG-21, with its VAT category) or on a line (BG-27, BG-28, without).
type AllowanceCharge struct {
	Amount      Dec    `json:"amount"`                // BT-92, BT-99, BT-136, BT-141
	BaseAmount  Dec    `json:"baseAmount,omitempty"`  // BT-93, BT-100, BT-137, BT-142
	Percent     Dec    `json:"percent,omitempty"`     // BT-94, BT-101, BT-138, BT-143
	VATCategory string `json:"vatCategory,omitempty"` // BT-95, BT-102
	VATRate     Dec    `json:"vatRate,omitempty"`     // BT-96, BT-103
	Reason      string `json:"reason,omitempty"`      // BT-97, BT-104, BT-139, BT-144
	ReasonCode  string `json:"reasonCode,omitempty"`  // BT-98, BT-105, BT-140, BT-145
}

// VAT is one line of the VAT breakdown (BG-23): a category and rate, the
// amount taxed and the tax.
type VAT struct {
	Category            string `json:"category"`                      // BT-118
	Rate                Dec    `json:"rate,omitempty"`                // BT-119
	TaxableAmount       Dec    `json:"taxableAmount"`                 // BT-116
	TaxAmount           Dec    `json:"taxAmount"`                     // BT-117
	ExemptionReason     string `json:"exemptionReason,omitempty"`     // BT-120
	ExemptionReasonCode string `json:"exemptionReasonCode,omitempty"` // BT-121
}

// Totals are the document totals (BG-22).
type Totals struct {
	LineTotal      Dec `json:"lineTotal"`                // BT-106
	AllowanceTotal Dec `json:"allowanceTotal,omitempty"` // BT-107
	ChargeTotal    Dec `json:"chargeTotal,omitempty"`    // BT-108
	TaxBasis       Dec `json:"taxBasis"`                 // BT-109
	TaxTotal       Dec `json:"taxTotal"`                 // BT-110
	GrandTotal     Dec `json:"grandTotal"`               // BT-112
	Prepaid        Dec `json:"prepaid,omitempty"`        // BT-113
	Rounding       Dec `json:"rounding,omitempty"`       // BT-114
	DuePayable     Dec `json:"duePayable"`               // BT-115
}
