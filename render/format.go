package render

import (
	"math"
	"sort"
	"strconv"
	"strings"
	"time"
)

// locale is how numbers, money and dates are written in one place.
type locale struct {
	group, decimal string
	// currencyAfter writes 1.234,50 € rather than €1,234.50.
	currencyAfter bool
	// currencySpace separates a symbol and the amount.
	currencySpace bool
	months        [12]string
	monthsShort   [12]string
	// short, medium and long are date layouts with the tokens D, DD, MM,
	// MMM, MMMM and YYYY.
	short, medium, long string
}

var (
	monthsEN = [12]string{"January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"}
	monthsDE = [12]string{"Januar", "Februar", "März", "April", "Mai", "Juni", "Juli", "August", "September", "Oktober", "November", "Dezember"}
	monthsFR = [12]string{"janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre", "octobre", "novembre", "décembre"}
	monthsES = [12]string{"enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre", "octubre", "noviembre", "diciembre"}
	monthsIT = [12]string{"gennaio", "febbraio", "marzo", "aprile", "maggio", "giugno", "luglio", "agosto", "settembre", "ottobre", "novembre", "dicembre"}
	monthsNL = [12]string{"januari", "februari", "maart", "april", "mei", "juni", "juli", "augustus", "september", "oktober", "november", "december"}
	monthsPT = [12]string{"janeiro", "fevereiro", "março", "abril", "maio", "junho", "julho", "agosto", "setembro", "outubro", "novembro", "dezembro"}
)

func short(months [12]string) [12]string {
	var out [12]string
	for i, m := range months {
		r := []rune(m)
		if len(r) > 3 {
			r = r[:3]
		}
		out[i] = string(r)
	}
	return out
}

var locales = map[string]locale{
	"en-US": {group: ",", decimal: ".", months: monthsEN, monthsShort: short(monthsEN), short: "MM/DD/YYYY", medium: "MMM D, YYYY", long: "MMMM D, YYYY"},
	"en-GB": {group: ",", decimal: ".", months: monthsEN, monthsShort: short(monthsEN), short: "DD/MM/YYYY", medium: "D MMM YYYY", long: "D MMMM YYYY"},
	"de-DE": {group: ".", decimal: ",", currencyAfter: true, currencySpace: true, months: monthsDE, monthsShort: short(monthsDE), short: "DD.MM.YYYY", medium: "D. MMM YYYY", long: "D. MMMM YYYY"},
	"fr-FR": {group: "\u202f", decimal: ",", currencyAfter: true, currencySpace: true, months: monthsFR, monthsShort: short(monthsFR), short: "DD/MM/YYYY", medium: "D MMM YYYY", long: "D MMMM YYYY"},
	"es-ES": {group: ".", decimal: ",", currencyAfter: true, currencySpace: true, months: monthsES, monthsShort: short(monthsES), short: "DD/MM/YYYY", medium: "D MMM YYYY", long: "D 'de' MMMM 'de' YYYY"},
	"it-IT": {group: ".", decimal: ",", currencyAfter: true, currencySpace: true, months: monthsIT, monthsShort: short(monthsIT), short: "DD/MM/YYYY", medium: "D MMM YYYY", long: "D MMMM YYYY"},
	"nl-NL": {group: ".", decimal: ",", currencySpace: true, months: monthsNL, monthsShort: short(monthsNL), short: "DD-MM-YYYY", medium: "D MMM YYYY", long: "D MMMM YYYY"},
	"pt-BR": {group: ".", decimal: ",", currencySpace: true, months: monthsPT, monthsShort: short(monthsPT), short: "DD/MM/YYYY", medium: "D 'de' MMM 'de' YYYY", long: "D 'de' MMMM 'de' YYYY"},
}

// defaultLocale is used when neither the helper nor the manifest names one.
const defaultLocale = "en-US"

// findLocale returns the locale for a tag: exact, then by language, then the default.
func findLocale(tag string) locale {
	if l, ok := locales[tag]; ok {
		return l
	}
	lang, _, _ := strings.Cut(strings.ReplaceAll(tag, "_", "-"), "-")
	for name, l := range locales {
		if strings.HasPrefix(name, strings.ToLower(lang)+"-") {
			return l
		}
	}
	return locales[defaultLocale]
}

func knownLocale(tag string) bool {
	_, ok := locales[tag]
	return ok
}

func localeNames() string {
	names := make([]string, 0, len(locales))
	for n := range locales {
		names = append(names, n)
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}

// formatNumber writes v with decimals places, rounding half away from zero.
func formatNumber(v float64, decimals int, l locale) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return ""
	}
	decimals = min(max(decimals, 0), 10)
	scale := math.Pow(10, float64(decimals))
	v = math.Round(v*scale) / scale
	neg := v < 0
	digits := strconv.FormatFloat(math.Abs(v), 'f', decimals, 64)
	intPart, frac, _ := strings.Cut(digits, ".")
	var b strings.Builder
	if neg && strings.Trim(digits, "0.") != "" {
		b.WriteByte('-')
	}
	for i, c := range intPart {
		if i > 0 && (len(intPart)-i)%3 == 0 {
			b.WriteString(l.group)
		}
		b.WriteRune(c)
	}
	if frac != "" {
		b.WriteString(l.decimal)
		b.WriteString(frac)
	}
	return b.String()
}

// currencies maps ISO codes to a symbol and its usual decimals.
var currencies = map[string]struct {
	symbol   string
	decimals int
}{
	"USD": {"$", 2}, "EUR": {"€", 2}, "GBP": {"£", 2}, "JPY": {"¥", 0}, "CHF": {"CHF", 2},
	"CAD": {"CA$", 2}, "AUD": {"A$", 2}, "NZD": {"NZ$", 2}, "SEK": {"kr", 2}, "NOK": {"kr", 2},
	"DKK": {"kr.", 2}, "PLN": {"zł", 2}, "BRL": {"R$", 2}, "INR": {"₹", 2}, "CNY": {"CN¥", 2},
	"MXN": {"MX$", 2}, "ZAR": {"R", 2}, "KRW": {"₩", 0}, "SGD": {"S$", 2}, "HKD": {"HK$", 2},
}

// formatCurrency writes an amount of money in a locale. decimals < 0 means
// the currency's usual number.
func formatCurrency(v float64, code string, decimals int, l locale) string {
	code = strings.ToUpper(code)
	c, ok := currencies[code]
	if !ok {
		c.symbol, c.decimals = code, 2
	}
	if decimals < 0 {
		decimals = c.decimals
	}
	num := formatNumber(math.Abs(v), decimals, l)
	sign := ""
	if v < 0 && strings.Trim(num, "0.,\u202f") != "" {
		sign = "-"
	}
	sep := ""
	// A symbol made of letters (CHF, kr) always stands apart from the digits.
	if l.currencySpace || isLetters(c.symbol) {
		sep = "\u00a0"
	}
	if l.currencyAfter {
		return sign + num + sep + c.symbol
	}
	return sign + c.symbol + sep + num
}

func isLetters(s string) bool {
	for _, r := range s {
		if !(r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z') {
			return false
		}
	}
	return s != ""
}

// formatDate writes t by a named style (short, medium, long, iso) or a
// pattern of the tokens YYYY, YY, MMMM, MMM, MM, M, DD, D, HH, mm, ss, with
// text in single quotes kept as written.
func formatDate(t time.Time, style string, l locale) string {
	pattern := style
	switch style {
	case "", "medium":
		pattern = l.medium
	case "short":
		pattern = l.short
	case "long":
		pattern = l.long
	case "iso":
		return t.Format("2006-01-02")
	case "datetime":
		return t.Format(time.RFC3339)
	}
	var b strings.Builder
	for i := 0; i < len(pattern); {
		if pattern[i] == '\'' {
			end := strings.IndexByte(pattern[i+1:], '\'')
			if end < 0 {
				b.WriteString(pattern[i+1:])
				break
			}
			b.WriteString(pattern[i+1 : i+1+end])
			i += end + 2
			continue
		}
		matched := false
		for _, tok := range []string{"YYYY", "YY", "MMMM", "MMM", "MM", "M", "DD", "D", "HH", "mm", "ss"} {
			if strings.HasPrefix(pattern[i:], tok) {
				b.WriteString(dateToken(t, tok, l))
				i += len(tok)
				matched = true
				break
			}
		}
		if !matched {
			b.WriteByte(pattern[i])
			i++
		}
	}
	return b.String()
}

func dateToken(t time.Time, tok string, l locale) string {
	switch tok {
	case "YYYY":
		return strconv.Itoa(t.Year())
	case "YY":
		return t.Format("06")
	case "MMMM":
		return l.months[t.Month()-1]
	case "MMM":
		return l.monthsShort[t.Month()-1]
	case "MM":
		return t.Format("01")
	case "M":
		return strconv.Itoa(int(t.Month()))
	case "DD":
		return t.Format("02")
	case "D":
		return strconv.Itoa(t.Day())
	case "HH":
		return t.Format("15")
	case "mm":
		return t.Format("04")
	case "ss":
		return t.Format("05")
	}
	return tok
}

// Grouped writes n with commas between groups of three digits, as the
// refusals people read write their limits ("more than 2,000 pages").
func Grouped(n int) string {
	s := strconv.Itoa(n)
	neg := n < 0
	if neg {
		s = s[1:]
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	if neg {
		s = "-" + s
	}
	return s
}
