// Package handlebars is Platen's Handlebars engine: it parses a template's
// markup once into a tree that is safe to execute concurrently, and fills it
// with data under a budget.
//
// It exists because the engine Platen used before (aymerick/raymond) could
// not be bounded: its evaluation could not be interrupted, so a fill refused
// after its time went on burning a core and growing memory; its parser left
// the lexer's goroutine, holding the whole source, behind on every syntax
// error; and it recursed once per nested block, so a deeply nested template
// could overflow the stack, which ends the process. This package keeps the
// Handlebars that templates are written in and removes those three:
//
//   - Parse takes tokens from raymond's lexer package (a dependency, not
//     code of ours) one at a time and always reads it to its last token,
//     on every path out, so its goroutine ends. Blocks, {{else if}} chains
//     and subexpressions nest at most MaxNesting deep, so no recursion over
//     the tree is deeper than that.
//   - Template.Exec spends a budget (Limits): a step for every statement,
//     loop iteration and helper call, every byte of output, and a time
//     checked at every step. The first limit passed stops the fill where it
//     is, with a *LimitError that says which limit and in which block; the
//     work ends with the refusal.
//   - A helper that panics fails its fill with an error, never the process.
//
// The output matches raymond's byte for byte (the differential tests hold
// it to that), except where raymond is undefined: {{#each}} over an object
// visits its keys in sorted order here, in random order there. Partials are
// refused when the template is parsed: no template can register any.
package handlebars
