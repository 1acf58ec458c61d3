package server

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// pageErrors collects what goes wrong in a person's page: scripts that
// throw, errors written to the console, and requests the server answers
// with an error (the favicon, a missing module).
type pageErrors struct {
	mu   sync.Mutex
	list []string
	// allow are substrings of errors a test expects.
	allow []string
}

// watch starts collecting the page's errors; the test fails at its end if
// there were any it did not allow.
func watch(t *testing.T, ctx context.Context, allow ...string) *pageErrors {
	t.Helper()
	pe := &pageErrors{allow: allow}
	err := chromedp.Listen(ctx, func(ev any) {
		switch ev := ev.(type) {
		case *runtime.EventExceptionThrown:
			d := ev.ExceptionDetails
			msg := d.Text
			if d.Exception != nil && d.Exception.Description != "" {
				msg = d.Exception.Description
			}
			pe.add(fmt.Sprintf("script error at %s:%d: %s", d.URL, d.LineNumber+1, msg))
		case *runtime.EventConsoleAPICalled:
			if ev.Type != runtime.ConsoleAPICalledTypeError {
				return
			}
			var parts []string
			for _, a := range ev.Args {
				parts = append(parts, strings.Trim(string(a.Value), `"`)+a.Description)
			}
			pe.add("console error: " + strings.Join(parts, " "))
		case *network.EventResponseReceived:
			r := ev.Response
			if r.Status >= 400 && ev.Type != network.ResourceTypeXHR && ev.Type != network.ResourceTypeFetch {
				pe.add(fmt.Sprintf("%d for %s", r.Status, r.URL))
			}
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		for _, e := range pe.errors() {
			t.Errorf("in the page: %s", e)
		}
	})
	return pe
}

func (pe *pageErrors) add(s string) {
	pe.mu.Lock()
	defer pe.mu.Unlock()
	for _, a := range pe.allow {
		if strings.Contains(s, a) {
			return
		}
	}
	pe.list = append(pe.list, s)
}

func (pe *pageErrors) errors() []string {
	pe.mu.Lock()
	defer pe.mu.Unlock()
	return append([]string(nil), pe.list...)
}

// The stylesheets of the lane and skirmish pages are linked from the page
// and written by their own work; until they are there, a 404 for them is
// expected.
var otherStyles = []string{"/lanes.css", "/skirmish.css"}

// poll waits until the JavaScript expression is true in a person's page.
func poll(js string) chromedp.Action[chromedp.Void] {
	return chromedp.Poll[chromedp.Void](js)
}

// app reads a data attribute of the page's root element.
func app(b *browser, ctx context.Context, name string) string {
	return b.eval(ctx, fmt.Sprintf(`document.getElementById("app").dataset[%q] || ""`, name))
}

// shoot saves a desktop screenshot and, at a phone's size, another (the
// page reloaded at that size), and checks that the phone-sized page does
// not scroll sideways. It leaves the page at the desktop size. ready is
// what to wait for after the reload ("" for nothing).
func shoot(b *browser, ctx context.Context, name, ready string) (desktop, phonePath string) {
	b.t.Helper()
	desktop = b.screenshot(ctx, name+".png")
	steps := []chromedp.Action[chromedp.Void]{phone(), chromedp.Reload()}
	if ready != "" {
		steps = append(steps, poll(ready))
	}
	b.run(ctx, steps...)
	time.Sleep(300 * time.Millisecond)
	if w := b.eval(ctx, `String(document.documentElement.scrollWidth)`); w != "390" {
		b.t.Errorf("%s: on a phone-sized screen the page is %s pixels wide, want 390 (no sideways scrolling)", name, w)
	}
	phonePath = b.screenshot(ctx, name+"-phone.png")
	b.run(ctx, chromedp.EmulateViewport(1200, 900), chromedp.Reload())
	if ready != "" {
		b.run(ctx, poll(ready))
	}
	return desktop, phonePath
}

// upload adds a game file to a test server's library and returns its id.
func (ts *testServer) upload(name, body string) string {
	ts.t.Helper()
	var up struct{ Board GameInfo }
	if st := ts.call("POST", "/api/boards?name="+name, body, &up); st != http.StatusCreated && st != http.StatusOK {
		ts.t.Fatalf("uploading %s: %d", name, st)
	}
	return up.Board.ID
}

// follow clicks what navigates to another page (a link, a button whose
// answer opens a page) and waits until the page's path is no longer from.
func follow(b *browser, ctx context.Context, sel string, from string) string {
	b.t.Helper()
	b.run(ctx, chromedp.WaitVisible(chromedp.CSS(sel)))
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](fmt.Sprintf(`document.querySelector(%q).click(), true`, sel))); err != nil {
		b.t.Fatal(err)
	}
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		p, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.readyState === "complete" ? location.pathname : ""`))
		if err == nil && p != "" && p != from {
			return p
		}
		time.Sleep(100 * time.Millisecond)
	}
	b.t.Fatalf("clicking %s did not leave %s", sel, from)
	return ""
}

// choose sets a form control's value as a person choosing it would: the
// page sees its input and change events.
func choose(sel, value string) chromedp.Action[chromedp.Void] {
	return chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`(() => { const el = document.querySelector(%q); el.value = %q;
		el.dispatchEvent(new Event("input", {bubbles: true})); el.dispatchEvent(new Event("change", {bubbles: true})); })()`, sel, value))
}
