package corpus

// This file is the one place where the engines under comparison are plugged
// in. The coordinator edits it when render/phantom exists; nothing else in
// the package needs to change.

import (
	"github.com/platen/platen/render"
)

// candidate returns the engine compared with Chromium, and whether it is
// phantom. Until phantom exists it is Chromium itself, and TestCorpus then
// requires no difference at all (Chromium against itself is the
// comparison's zero). When phantom exists:
//
//	e, err := phantom.New(phantom.DefaultConfig())
//	return e, true, closeFunc, err
func candidate(chromium render.Engine) (eng render.Engine, isPhantom bool, closeFn func(), err error) {
	return chromium, false, func() {}, nil
}

// chooseDefault is the platform default's choice for a job: the engine it
// picks and why. TestCorpus requires it to pick Chromium for every hand-off
// document and phantom for every other. nil until phantom exists, and the
// check is skipped, saying so. When phantom exists, for example:
//
//	chooseDefault = func(job render.Job) (string, []string) {
//		if ok, reasons := phantom.Supports(job.HTML); !ok {
//			return render.EngineChromium, reasons
//		}
//		return render.EnginePhantom, nil
//	}
var chooseDefault func(job render.Job) (engine string, reasons []string)
