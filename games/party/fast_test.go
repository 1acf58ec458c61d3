package party

import (
	"testing"
)

// TestBotCommandsReadAsDecoded: the commands the bot writes are read from
// their bytes without decoding, as decoding reads them; bytes that differ
// in any way are decoded.
func TestBotCommandsReadAsDecoded(t *testing.T) {
	var written []string
	for _, c := range []Command{{Kind: KindRoll}, {Kind: KindAck}} {
		written = append(written, string(c.json()))
	}
	for v := range 1200 {
		written = append(written, string(Command{Kind: KindChoosePath, Value: v}.json()))
	}
	for _, data := range written {
		got, ok := botCommand([]byte(data))
		if !ok {
			t.Errorf("%s: the bot's command is not recognised", data)
			continue
		}
		want, _, err := readCommand(0, []byte(data))
		if err != nil || got != want {
			t.Errorf("%s: read as %+v, decoded as %+v (%v)", data, got, want, err)
		}
	}
	for _, data := range []string{
		`{"kind":"roll" }`, ` {"kind":"ack"}`, `{"kind": "roll"}`, `{"kind":"roll","value":1}`,
		`{"kind":"choose-path","value":01}`, `{"kind":"choose-path","value":-1}`, `{"kind":"choose-path","value":1 }`,
		`{"kind":"choose-path","value":}`, `{"kind":"choose-path","value":1x}`, `{"kind":"choose-path","value":12345}`,
		`{"kind":"choose-path","value":1}}`, `{"kind":"choose-path","space":"1"}`, `{"kind":"choose-path","value":1,"player":0}`,
	} {
		if c, ok := botCommand([]byte(data)); ok {
			t.Errorf("%s: read without decoding as %+v", data, c)
		}
	}
}
