package corpus

// This file is the one place where the engines are plugged in. TestCorpus
// compares phantom with Chromium by default; -candidate chromium compares
// Chromium with itself, the comparison's zero.

import (
	"flag"
	"fmt"

	"github.com/platen/platen/render"
	"github.com/platen/platen/render/phantom"
)

// candidateName is the engine TestCorpus compares with Chromium. With
// chromium, Chromium is compared with itself: the comparison's zero, where
// every figure must be exactly 0. With phantom, every compared document
// must meet the bar.
var candidateName = flag.String("candidate", render.EnginePhantom, "the engine TestCorpus compares with Chromium: chromium (itself, every figure 0) or phantom")

// newPhantom returns the phantom engine. TestCorpus asks it, through the
// platform default's choice, which documents it takes, whatever the
// candidate.
func newPhantom() (render.Engine, error) { return phantom.New(phantom.DefaultConfig()) }

// candidate returns the engine compared with Chromium and whether it is
// phantom (p, which newPhantom made).
func candidate(chromium, p render.Engine) (eng render.Engine, isPhantom bool, err error) {
	switch *candidateName {
	case render.EngineChromium:
		return chromium, false, nil
	case render.EnginePhantom:
		return p, true, nil
	}
	return nil, false, fmt.Errorf("-candidate is chromium or phantom, not %q", *candidateName)
}
