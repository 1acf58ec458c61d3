package cluster

import "sync"

// Stall pauses the node's renewals, as if its process were stopped
// (SIGSTOP), until resume is called.
func (n *Node) Stall() (resume func()) {
	ch := make(chan struct{})
	n.paused <- ch
	return sync.OnceFunc(func() { close(ch) })
}

// Crash stops the node as a killed process would: no renewals, no
// releases, the connection gone.
func (n *Node) Crash() {
	n.mu.Lock()
	n.closed = true
	n.leases = map[string]*lease{}
	n.mu.Unlock()
	close(n.stop)
	<-n.done
	n.nc.Close()
	n.lost.close()
}

// RenewAll renews every lease once, as the renewals do every third of the
// lease time.
func (n *Node) RenewAll() bool { return n.renewAll() }
