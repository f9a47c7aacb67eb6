package corpus

// This file is the one place where the engine under comparison is plugged
// in: the coordinator flips the default of -candidate to phantom when
// phantom meets the bar, and nothing else in the package needs to change.

import (
	"flag"
	"fmt"

	"github.com/platen/platen/render"
	"github.com/platen/platen/render/phantom"
)

// candidateName is the engine TestCorpus compares with Chromium. With
// chromium, Chromium is compared with itself: the comparison's zero, where
// every figure must be exactly 0. With phantom, every compared document
// must meet the bar, and the platform default's choice is checked too.
var candidateName = flag.String("candidate", render.EngineChromium, "the engine TestCorpus compares with Chromium: chromium (itself, every figure 0) or phantom")

// candidate returns the engine compared with Chromium, whether it is
// phantom, and what closes it.
func candidate(chromium render.Engine) (eng render.Engine, isPhantom bool, closeFn func(), err error) {
	switch *candidateName {
	case render.EngineChromium:
		return chromium, false, func() {}, nil
	case render.EnginePhantom:
		e, err := phantom.New(phantom.DefaultConfig())
		return e, true, func() {}, err
	}
	return nil, false, nil, fmt.Errorf("-candidate is chromium or phantom, not %q", *candidateName)
}
