package handlebars

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/aymerick/raymond"
)

// oracle fills src with raymond, the engine this one replaces; a raymond
// panic is a failure like its errors.
func oracle(src string, ctx any, helpers map[string]any, data map[string]any) (out string, err error) {
	defer func() {
		if v := recover(); v != nil {
			out, err = "", fmt.Errorf("raymond panicked: %v", v)
		}
	}()
	tpl, err := raymond.Parse(src)
	if err != nil {
		return "", err
	}
	if helpers != nil {
		tpl.RegisterHelpers(helpers)
	}
	frame := raymond.NewDataFrame()
	for k, v := range data {
		frame.Set(k, v)
	}
	return tpl.ExecWith(ctx, frame)
}

// ours fills src with this engine.
func ours(src string, ctx any, helpers map[string]any, data map[string]any) (string, error) {
	tpl, err := Parse(src, helpers)
	if err != nil {
		return "", err
	}
	return tpl.Exec(ctx, Run{Data: data, Limits: Limits{Steps: 1_000_000, Bytes: 1 << 24}})
}

func decode(t testing.TB, s string) map[string]any {
	var m map[string]any
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

const diffData = `{"title":"Hello <b>&'\"","n":0,"f":1.5,"yes":true,"no":false,"nil":null,"empty":[],"s":"",
"items":[{"name":"a","qty":1,"tags":["x","y"]},{"name":"b","qty":2,"tags":[]},{"name":"c","qty":0}],
"obj":{"k":"v"},"person":{"name":"Ann","address":{"city":"Oslo"}},"a b":"spaced","list":[1,2,3],"nested":[[1,2],[3]]}`

// diffCases cover each feature of the Handlebars Platen supports.
var diffCases = []string{
	// mustaches, escaping, raw
	`{{title}}`, `{{{title}}}`, `{{& title}}`, `{{~title~}}`, `{{f}} {{n}} {{yes}} {{no}} {{nil}} {{s}}`,
	`{{list}}`, `{{items.0.name}}`, `{{person.address.city}}`, `{{person/name}}`, `{{[a b]}}`, `{{missing.x}}`,
	`\{{title}} {{title}}`, `\\{{title}}`, `{{"title"}}`, `{{this.title}}`, `{{./title}}`,
	// paths up the context
	`{{#each items}}{{name}}-{{title}}-{{../title}}{{/each}}`,
	`{{#with person}}{{name}} {{address.city}} {{../title}} {{@root.title}}{{/with}}`,
	`{{#each items}}{{#each tags}}{{this}}{{../name}}{{../../title}}{{/each}}{{/each}}`,
	// data variables
	`{{#each items}}{{@index}}{{@first}}{{@last}}{{@key}}|{{/each}}`,
	`{{#each obj}}{{@key}}={{this}} {{@index}}{{/each}}`,
	`{{@now}} {{@root.title}}`,
	`{{#each list}}{{#each ../list}}{{@../index}}{{@index}} {{/each}}{{/each}}`,
	// blocks
	`{{#if yes}}Y{{else}}N{{/if}}`, `{{#if no}}Y{{else}}N{{/if}}`, `{{#if n}}Y{{^}}N{{/if}}`,
	`{{#if 0 includeZero=true}}Z{{/if}}`, `{{#unless no}}U{{else}}V{{/unless}}`,
	`{{#if no}}1{{else if n}}2{{else if yes}}3{{else}}4{{/if}}`,
	`{{#if no}}1{{else if nil}}2{{else}}4{{/if}}`,
	`{{#with person}}{{name}}{{else}}none{{/with}}`, `{{#with nil}}x{{else}}none{{/with}}`,
	`{{#each empty}}x{{else}}empty{{/each}}`, `{{#items}}{{name}}{{/items}}`, `{{^empty}}none{{/empty}}`,
	`{{#person}}{{name}}{{/person}}`, `{{#title}}{{.}}{{/title}}`, `{{#nested}}{{#this}}{{.}}{{/this}};{{/nested}}`,
	`{{#each items as |item i|}}{{i}}:{{item.name}} {{/each}}`,
	`{{#with person as |p|}}{{p.name}}{{/with}}`,
	`{{#each obj as |v k|}}{{k}}{{v}}{{/each}}`,
	`{{lookup person "name"}} {{lookup list 1}} {{#each items}}{{lookup ../person "name"}}{{/each}}`,
	`{{#equal title title}}same{{/equal}}`, `{{log "x"}}after`,
	// helpers, hash, subexpressions
	`{{up title}}`, `{{join list sep=", "}}`, `{{up (join list sep="-")}}`, `{{#if (gt f 1)}}big{{/if}}`,
	`{{safe}}`, `{{join items.name sep=","}}`, `{{up nil}}`, `{{count 1}}`,
	// comments and whitespace control
	"a {{! note }} b", "a {{!-- {{x}} --}} b", "a\n  {{! note }}\nb", "x  {{~title~}}  y",
	"{{#each list~}}\n  {{this}}\n{{~/each}}", "a {{~#if yes~}} b {{~else~}} c {{~/if~}} d",
	// standalone lines
	"<ul>\n  {{#each items}}\n  <li>{{name}}</li>\n  {{/each}}\n</ul>\n",
	"{{#if yes}}\nyes\n{{else}}\nno\n{{/if}}\n", "  {{#if no}}\n  a\n  {{else if yes}}\n  b\n  {{/if}}\n",
	"{{#if yes}}\r\nwin\r\n{{/if}}\r\n", "a\n{{#if yes}}\nb\n{{/if}}", "{{#each list}}\n{{this}}\n{{/each}}",
	"x {{#if yes}}\ny\n{{/if}} z", "  {{! c }}  \nz",
	// raw blocks
	"{{{{raw}}}}{{title}}{{{{/raw}}}}",
}

func diffHelpers() map[string]any {
	return map[string]any{
		"up":    func(s string) string { return strings.ToUpper(s) },
		"join":  func(v any, o *Options) string { return joinAny(v, o.HashStr("sep")) },
		"gt":    func(a, b float64) bool { return a > b },
		"safe":  func() SafeString { return "<i>safe</i>" },
		"count": func(n int) string { return fmt.Sprint(n) },
		"raw":   func(o *Options) string { return o.Fn() },
	}
}

// raymondHelpers are diffHelpers with raymond's own types.
func raymondHelpers() map[string]any {
	return map[string]any{
		"up":    func(s string) string { return strings.ToUpper(s) },
		"join":  func(v any, o *raymond.Options) string { return joinAny(v, o.HashStr("sep")) },
		"gt":    func(a, b float64) bool { return a > b },
		"safe":  func() raymond.SafeString { return "<i>safe</i>" },
		"count": func(n int) string { return fmt.Sprint(n) },
		"raw":   func(o *raymond.Options) string { return o.Fn() },
	}
}

func joinAny(v any, sep string) string {
	l, _ := v.([]any)
	var s []string
	for _, x := range l {
		s = append(s, Str(x))
	}
	return strings.Join(s, sep)
}

func TestMatchesRaymond(t *testing.T) {
	for _, src := range diffCases {
		data := map[string]any{"now": "NOW"}
		want, werr := oracle(src, decode(t, diffData), raymondHelpers(), data)
		got, gerr := ours(src, decode(t, diffData), diffHelpers(), data)
		if (werr != nil) != (gerr != nil) {
			t.Errorf("%q: raymond err %v, ours %v", src, werr, gerr)
			continue
		}
		if got != want {
			t.Errorf("%q:\n got %q\nwant %q", src, got, want)
		}
	}
}
