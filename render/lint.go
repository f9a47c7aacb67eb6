package render

import (
	"fmt"
	"slices"

	"github.com/aymerick/raymond/ast"
	"github.com/aymerick/raymond/parser"
)

// builtinHelpers are raymond's own helpers.
var builtinHelpers = []string{"if", "unless", "with", "each", "log", "lookup", "equal"}

// lint parses markup and reports the first call of a helper that does not
// exist. Handlebars.js refuses such a call when it runs; raymond prints
// nothing instead, which would hide a typo such as formatCurency until a
// customer saw the blank. Partials are refused: a template cannot register any.
func lint(src string) error {
	prog, err := parser.Parse(src)
	if err != nil {
		return err
	}
	return walk(prog)
}

func walk(n ast.Node) error {
	switch n := n.(type) {
	case *ast.Program:
		if n == nil {
			return nil
		}
		for _, s := range n.Body {
			if err := walk(s); err != nil {
				return err
			}
		}
	case *ast.MustacheStatement:
		return walkExpr(n.Expression, false)
	case *ast.BlockStatement:
		if err := walkExpr(n.Expression, false); err != nil {
			return err
		}
		if n.Program != nil {
			if err := walk(n.Program); err != nil {
				return err
			}
		}
		if n.Inverse != nil {
			return walk(n.Inverse)
		}
	case *ast.PartialStatement:
		return fmt.Errorf("line %d: partials ({{> …}}) are not supported; put the markup in the template", n.Line)
	case *ast.SubExpression:
		return walkExpr(n.Expression, true)
	}
	return nil
}

// walkExpr checks an expression; call says it is certainly a helper call
// (a subexpression), otherwise it is one when it has parameters.
func walkExpr(e *ast.Expression, call bool) error {
	if e == nil {
		return nil
	}
	name := e.HelperName()
	if name != "" && (call || len(e.Params) > 0 || e.Hash != nil) && !slices.Contains(HelperNames, name) && !slices.Contains(builtinHelpers, name) {
		return fmt.Errorf("line %d: unknown helper %q", e.Line, name)
	}
	for _, p := range e.Params {
		if err := walk(p); err != nil {
			return err
		}
	}
	if e.Hash != nil {
		for _, pair := range e.Hash.Pairs {
			if err := walk(pair.Val); err != nil {
				return err
			}
		}
	}
	return nil
}
