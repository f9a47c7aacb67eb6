package main

import (
	"fmt"

	"github.com/platen/platen/render"
	"github.com/platen/platen/render/phantom"
)

// newEngine returns the in-process engine of that name.
func newEngine(name string) (render.Engine, error) {
	if name != render.EnginePhantom {
		return nil, fmt.Errorf("no engine %q", name)
	}
	return phantom.New(phantom.DefaultConfig())
}
