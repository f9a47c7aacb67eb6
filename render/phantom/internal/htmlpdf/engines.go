package main

import (
	"fmt"

	"github.com/platen/platen/render"
)

// newEngine returns the in-process engine of that name.
func newEngine(name string) (render.Engine, error) {
	return nil, fmt.Errorf("no engine %q yet", name)
}
