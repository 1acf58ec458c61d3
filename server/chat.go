package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"time"

	"github.com/tabulagames/tabula/store"
	"github.com/tabulagames/tabula/usertext"
)

// The table's chat: short plain-text messages beside a match's log. They
// are stored beside the match (a restart keeps them, a replay shows them)
// and never enter its commands, state or hash. Text goes through package
// usertext at the edge; the page shows it as text, never as HTML.

const (
	// MaxChat is the longest chat message, in characters.
	MaxChat = 200
	// chatHistory is how many of the last messages a connection is sent
	// when it joins, and a room keeps.
	chatHistory = 100
	// A connection may write chatBurst messages in a row, then one every
	// 1/chatRate seconds; an address at most chatPerMinute a minute
	// across its connections.
	chatBurst     = 5
	chatRate      = 0.5
	chatPerMinute = 30
)

// chatLog is a room's recent chat, loaded from the store on first use.
type chatLog struct {
	loaded bool
	msgs   []store.ChatMessage
	next   int // the next message's number
}

// chatOut is a chat message to clients: new messages, or (History) the
// last ones, sent to a connection when it joins.
type chatOut struct {
	Type     string              `json:"type"`
	History  bool                `json:"history,omitempty"`
	Messages []store.ChatMessage `json:"messages"`
}

func (r *room) loadChat(ctx context.Context) error {
	if r.chat.loaded {
		return nil
	}
	msgs, err := r.srv.store.Chat(ctx, r.id, chatHistory)
	if err != nil {
		return err
	}
	r.chat = chatLog{loaded: true, msgs: msgs}
	if len(msgs) > 0 {
		r.chat.next = msgs[len(msgs)-1].Seq + 1
	}
	return nil
}

// sendChat sends a connection that joins the chat's last messages.
func (r *room) sendChat(s *session) {
	if err := r.loadChat(r.srv.ctx); err != nil {
		r.srv.log.Warn("reading a match's chat", "match", r.id, "err", err)
		return
	}
	if len(r.chat.msgs) == 0 {
		return
	}
	data, _ := json.Marshal(chatOut{Type: "chat", History: true, Messages: r.chat.msgs})
	s.send(data)
}

// say writes a chat message from a connection: as the seat it plays (or,
// msg.Seat, another seat of its device), or as someone watching under the
// name msg.Name when the owner lets those watching write.
func (r *room) say(ctx context.Context, s *session, msg clientMsg) error {
	if err := r.loadChat(ctx); err != nil {
		return fmt.Errorf("the chat cannot be read now; try again")
	}
	text, err := usertext.Message(msg.Text, MaxChat)
	if err != nil {
		return err
	}
	seat := s.seat
	if seat < 0 && len(s.held) > 0 {
		seat = s.held[0]
	}
	if msg.Seat != nil && *msg.Seat >= 0 {
		if !slices.Contains(s.held, *msg.Seat) {
			return fmt.Errorf("this device does not play seat %d", *msg.Seat+1)
		}
		seat = *msg.Seat
	}
	var name string
	if seat >= 0 {
		if r.rec.Seats[seat].Muted {
			return errors.New("the match's creator muted you in this chat")
		}
		name = r.rec.Seats[seat].Name
	} else {
		if !r.rec.Settings.SpectatorChat {
			return errors.New("only the players write here: the match's creator has not opened the chat to those watching")
		}
		if name, err = usertext.Name(msg.Name); err != nil {
			return err
		}
		for _, st := range r.rec.Seats {
			if st.Name != "" && usertext.LookAlike(st.Name, name) {
				return fmt.Errorf("%q reads like %q, who plays here: choose another name to write under", name, st.Name)
			}
		}
	}
	// A writer's repeat of one of their last two messages is a flood.
	mine := 0
	for i := len(r.chat.msgs) - 1; i >= 0 && mine < 2; i-- {
		if m := r.chat.msgs[i]; m.Seat == seat && m.Name == name {
			if m.Text == text {
				return errors.New("you just wrote that")
			}
			mine++
		}
	}
	m := store.ChatMessage{Seq: r.chat.next, Seat: seat, Name: name, Text: text, At: time.Now().UTC()}
	if err := r.srv.store.AddChat(ctx, r.id, m, r.rec.Fence); err != nil {
		r.srv.log.Error("storing a chat message", "match", r.id, "err", err)
		if errors.Is(err, store.ErrFenced) {
			r.stopping, r.moved = true, true
			return fmt.Errorf("%w; try again", errOwnerGone)
		}
		return errors.New("the message could not be saved; try again")
	}
	r.chat.next++
	r.chat.msgs = append(r.chat.msgs, m)
	if n := len(r.chat.msgs); n > chatHistory {
		r.chat.msgs = append(r.chat.msgs[:0:0], r.chat.msgs[n-chatHistory:]...)
	}
	data, _ := json.Marshal(chatOut{Type: "chat", Messages: []store.ChatMessage{m}})
	for s := range r.sessions {
		s.send(data)
	}
	return nil
}

// chatGate checks a connection's chat messages where the client is (the
// node that holds its socket, in a cluster): their text, and their rate,
// per connection and per address.
type chatGate struct {
	srv  *Server
	addr string
	rate *bucket
}

func newChatGate(srv *Server, addr string) *chatGate {
	return &chatGate{srv: srv, addr: addr, rate: newBucket(chatRate, chatBurst)}
}

// check normalises a chat message's text, or returns the reply refusing
// it.
func (g *chatGate) check(msg *clientMsg) (replyMsg, bool) {
	now := time.Now()
	refuse := func(why string) (replyMsg, bool) {
		g.srv.metrics.rejected.WithLabelValues("chat").Inc()
		return replyMsg{Type: "rejected", ID: msg.ID, Reason: why}, false
	}
	if !g.rate.take(now) {
		return refuse(fmt.Sprintf("You are writing too fast: %d messages in a row at most, then one every %g seconds. Wait a moment.", chatBurst, 1/chatRate))
	}
	if ok, _ := g.srv.chats.allow(g.addr, now); !ok {
		return refuse(fmt.Sprintf("Too many messages from your address: at most %d a minute. Wait a moment.", chatPerMinute))
	}
	text, err := usertext.Message(msg.Text, MaxChat)
	if err != nil {
		return refuse(err.Error())
	}
	msg.Text = text
	return replyMsg{}, true
}

// mute mutes (or unmutes) a seat's player in the chat: the owner's
// decision, kept with the match.
func (r *room) mute(ctx context.Context, rt rights, seat int, on bool) error {
	switch {
	case !rt.owner:
		return errNotOwner
	case seat < 0 || seat >= len(r.rec.Seats) || r.rec.Seats[seat].Name == "":
		return fmt.Errorf("there is nobody in seat %d", seat+1)
	}
	prev := r.rec.Seats[seat].Muted
	r.rec.Seats[seat].Muted = on
	if err := r.save(ctx); err != nil {
		r.rec.Seats[seat].Muted = prev
		return err
	}
	r.changed()
	return nil
}

// chatSettings lets the owner open the chat to those watching, or close
// it to them: POST /api/matches/ID/settings {owner, spectatorChat}.
func (srv *Server) chatSettings(w http.ResponseWriter, req *http.Request, r *room) {
	var sr struct {
		secretsIn
		SpectatorChat *bool `json:"spectatorChat"`
	}
	srv.ownerAction(w, req, r, &sr, &sr.secretsIn, func(rt rights) error {
		switch {
		case !rt.owner:
			return errNotOwner
		case sr.SpectatorChat == nil:
			return errors.New(`say what to change: {"spectatorChat": true|false}`)
		}
		prev := r.rec.Settings
		r.rec.Settings.SpectatorChat = *sr.SpectatorChat
		if err := r.save(req.Context()); err != nil {
			r.rec.Settings = prev
			return err
		}
		r.changed()
		return nil
	})
}
