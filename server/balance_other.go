//go:build !linux

package server

import "time"

// lowerThreadPriority does nothing where a thread's priority is not its
// own to lower: the simulation still yields every millisecond and runs on
// fewer workers than there are CPUs.
func lowerThreadPriority() {}

// threadStart is when the process started, for threadCPU.
var threadStart = time.Now()

// threadCPU counts the time elapsed instead of the thread's CPU time where
// the latter cannot be read: a simulation then stops after its budget of
// time rather than of CPU.
func threadCPU() time.Duration { return time.Since(threadStart) }
