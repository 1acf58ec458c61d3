//go:build race

package server

// raceDetector is set when the tests run with the race detector, whose
// bookkeeping allocates: allocation counts mean nothing then.
const raceDetector = true
