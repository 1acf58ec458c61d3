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

// audit lists what keeps a page from being used without a mouse or with
// a screen reader: form controls without a label, buttons and links
// without a name, ARIA states that are not "true" or "false", things
// acting as buttons that the keyboard cannot reach, ids used twice, and
// a page without a live region to announce what happens.
const audit = `(() => {
  const bad = [];
  const short = (el) => el.outerHTML.slice(0, 90);
  const named = (el) => {
    const by = el.getAttribute("aria-labelledby");
    return ((el.getAttribute("aria-label") || "") + (by ? by.split(" ").map(id => document.getElementById(id)?.textContent || "").join("") : "") +
      el.textContent + (el.title || "") + (el.alt || "")).trim() !== "";
  };
  for (const el of document.querySelectorAll("input, select, textarea")) {
    if (el.type === "hidden" || el.closest("[aria-hidden=true]")) continue;
    if (!el.labels?.length && !el.getAttribute("aria-label") && !el.getAttribute("aria-labelledby")) bad.push("a control without a label: " + short(el));
  }
  for (const el of document.querySelectorAll("button, a[href], [role=button], [role=tab]")) {
    if (!el.closest("[aria-hidden=true]") && !named(el)) bad.push("nothing names " + short(el));
  }
  for (const el of document.querySelectorAll("*")) {
    for (const a of ["aria-selected", "aria-pressed", "aria-expanded", "aria-invalid", "aria-checked"]) {
      const v = el.getAttribute(a);
      if (v !== null && v !== "true" && v !== "false") bad.push(a + "=" + JSON.stringify(v) + " on " + short(el));
    }
  }
  for (const el of document.querySelectorAll("[role=button], [role=tab][aria-selected=true], [onclick]")) {
    if (el.tabIndex < 0) bad.push("the keyboard cannot reach " + short(el));
  }
  const tabs = document.querySelectorAll("[role=tab]");
  if (tabs.length && [...tabs].filter(t => t.getAttribute("aria-selected") === "true").length !== 1) bad.push("not exactly one tab is selected");
  const ids = [...document.querySelectorAll("[id]")].map(e => e.id);
  const twice = ids.filter((x, i) => ids.indexOf(x) !== i);
  if (twice.length) bad.push("ids used twice: " + twice.join(", "));
  if (!document.querySelector("[aria-live], [role=log], [role=status], [role=alert]")) bad.push("no live region");
  if (!document.querySelector("main")) bad.push("no main landmark");
  if (!document.querySelector("h1")) bad.push("no heading");
  return bad.join("\n");
})()`

// accessible fails the test with what the audit finds in a page.
func accessible(b *browser, ctx context.Context, what string) {
	b.t.Helper()
	if got := b.eval(ctx, audit); got != "" {
		b.t.Errorf("%s is not accessible:\n%s", what, got)
	}
}
