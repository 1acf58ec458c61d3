package server

import (
	"syscall"
	"time"
)

// lowerThreadPriority gives the calling thread the lowest scheduling
// priority (nice 19): on Linux a thread's nice value is its own, so that
// the rest of the server keeps its priority. Lowering needs no privilege;
// a failure leaves the thread as it was.
func lowerThreadPriority() {
	syscall.Setpriority(syscall.PRIO_PROCESS, syscall.Gettid(), 19)
}

// rusageThread is Linux's RUSAGE_THREAD: the calling thread's usage.
const rusageThread = 1

// threadCPU is the CPU time the calling thread has used.
func threadCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(rusageThread, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
