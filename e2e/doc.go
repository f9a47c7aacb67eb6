// Package e2e holds the console's browser tests: e2e_test.go starts one real
// node (the platen binary, an empty data folder, loopback) and runs each
// tests/*.test.mjs with node's built-in test runner, which drives Debian's
// Chromium through playwright-core (lib.mjs has the helpers). The package has
// no code of its own; README.md says how to run one test and where the
// screenshots go.
package e2e
