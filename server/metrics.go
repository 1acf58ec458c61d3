package server

import (
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
)

// metrics are what /metrics tells Prometheus. Each server has its own
// registry, so that several servers (tests, a cluster in one process)
// never share counters.
type metrics struct {
	reg         *prometheus.Registry
	matches     *prometheus.GaugeVec
	rooms       prometheus.Gauge
	connections prometheus.Gauge
	commands    prometheus.Counter
	latency     prometheus.Histogram
	storeWrite  prometheus.Histogram
	rejected    *prometheus.CounterVec
	panics      prometheus.Counter
}

func newMetrics() *metrics {
	m := &metrics{
		reg: prometheus.NewRegistry(),
		matches: prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "tabula_matches",
			Help: "Matches in memory, by status (lobby, playing, finished, broken)."}, []string{"status"}),
		rooms: prometheus.NewGauge(prometheus.GaugeOpts{Name: "tabula_rooms",
			Help: "Matches held in memory (the others are in the store only)."}),
		connections: prometheus.NewGauge(prometheus.GaugeOpts{Name: "tabula_connections",
			Help: "Open WebSocket connections."}),
		commands: prometheus.NewCounter(prometheus.CounterOpts{Name: "tabula_commands_total",
			Help: "Commands accepted and stored (players' and bots')."}),
		latency: prometheus.NewHistogram(prometheus.HistogramOpts{Name: "tabula_command_seconds",
			Help:    "Time from a command's arrival in its match to its acknowledgement (applied and stored).",
			Buckets: prometheus.ExponentialBuckets(0.00005, 2, 16)}),
		storeWrite: prometheus.NewHistogram(prometheus.HistogramOpts{Name: "tabula_store_write_seconds",
			Help:    "Time to store one command (its share of a group commit included).",
			Buckets: prometheus.ExponentialBuckets(0.00005, 2, 16)}),
		rejected: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "tabula_rejected_total",
			Help: "Commands and requests refused, by reason."}, []string{"reason"}),
		panics: prometheus.NewCounter(prometheus.CounterOpts{Name: "tabula_panics_recovered_total",
			Help: "Panics recovered in matches and requests (each is a bug, logged with its stack)."}),
	}
	m.reg.MustRegister(m.matches, m.rooms, m.connections, m.commands, m.latency, m.storeWrite, m.rejected, m.panics,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}
