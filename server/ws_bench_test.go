package server

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// BenchmarkLoopbackFrame measures the floor under what a state message
// costs the server: one WebSocket frame of a state message's size,
// written over loopback by one end and read by the other, in the same
// process, with nothing else done. It reports the process's CPU time per frame (both ends, the
// kernel's part included): a command sends one such frame to each
// connection of its match.
//
//	go test ./server -run '^$' -bench LoopbackFrame -benchtime 50000x
func BenchmarkLoopbackFrame(b *testing.B) {
	frame := bytes.Repeat([]byte("x"), 2500)
	got := make(chan int, 1)
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		ws, err := websocket.Accept(w, req, nil)
		if err != nil {
			return
		}
		ws.SetReadLimit(1 << 20)
		n := 0
		for {
			if _, _, err := ws.Read(context.Background()); err != nil {
				got <- n
				return
			}
			n++
		}
	}))
	defer hs.Close()
	ws, _, err := websocket.Dial(context.Background(), strings.Replace(hs.URL, "http", "ws", 1), nil)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	cpu := readStats().CPU
	start := time.Now()
	for range b.N {
		if err := ws.Write(context.Background(), websocket.MessageText, frame); err != nil {
			b.Fatal(err)
		}
	}
	ws.Close(websocket.StatusNormalClosure, "")
	if n := <-got; n != b.N {
		b.Fatalf("%d frames read of %d", n, b.N)
	}
	b.ReportMetric(float64(readStats().CPU-cpu)/float64(b.N)/1e3, "cpu-µs/frame")
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "frames/s")
}
