package server

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/tabulagames/tabula/examples"
)

// chromium finds the browser for end-to-end tests. Without one the tests
// skip on a developer's machine and fail under CI, where .ci/run installs
// Debian's chromium.
func chromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("no chromium: CI must install it (apt-get install -y chromium)")
	}
	t.Skip("skipping browser tests: no chromium on this machine (apt-get install -y chromium)")
	return ""
}

// newPageServer starts a server with every pack and the bundled games,
// for the page's tests.
func newPageServer(t *testing.T, opts Options) *testServer {
	t.Helper()
	if opts.Packs == nil {
		opts.Packs = allPacks()
	}
	if opts.Bundled.FS == nil {
		opts.Bundled = BundledGames{FS: examples.Games, Default: "default"}
	}
	return newTestServer(t, opts)
}

// artifacts is where browser tests leave screenshots: $TABULA_ARTIFACTS,
// or .artifacts at the repository's root.
func artifacts(t *testing.T) string {
	dir := os.Getenv("TABULA_ARTIFACTS")
	if dir == "" {
		dir = filepath.Join("..", ".artifacts")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// browser is a Chromium for a test, with a deadline for the whole test.
type browser struct {
	t        *testing.T
	ctx      context.Context
	deadline context.Context
}

// newBrowser starts Chromium; it stops when the test ends.
func newBrowser(t *testing.T, exe string) *browser {
	t.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(exe), chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.Flag("disable-quic", true), chromedp.Flag("disable-sync", true),
		chromedp.WindowSize(1200, 900))
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancelAlloc)
	ctx, cancelBrowser := chromedp.NewContext(alloc)
	t.Cleanup(cancelBrowser)
	if err := chromedp.Do(ctx); err != nil {
		t.Fatal(err)
	}
	deadline, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	t.Cleanup(cancel)
	return &browser{t: t, ctx: ctx, deadline: deadline}
}

// person opens a browser context of its own: its own storage, as on
// someone's own phone.
func (b *browser) person() context.Context {
	ctx, _ := chromedp.NewContext(b.ctx, chromedp.WithNewBrowserContext())
	if err := chromedp.Do(ctx); err != nil {
		b.t.Fatal(err)
	}
	return ctx
}

// run does the steps in a person's page, within a minute and the test's
// deadline.
func (b *browser) run(ctx context.Context, steps ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	ctx, c := context.WithTimeout(ctx, time.Minute)
	defer c()
	go func() {
		select {
		case <-b.deadline.Done():
			c()
		case <-ctx.Done():
		}
	}()
	if err := chromedp.Do(ctx, steps...); err != nil {
		b.t.Fatal(err)
	}
}

// eval runs JavaScript in a person's page and returns its string result.
func (b *browser) eval(ctx context.Context, js string) string {
	b.t.Helper()
	s, err := chromedp.Run(ctx, chromedp.Evaluate[string](js))
	if err != nil {
		b.t.Fatal(err)
	}
	return s
}

// screenshot saves a person's whole page as a PNG in the artifacts folder.
func (b *browser) screenshot(ctx context.Context, name string) string {
	b.t.Helper()
	shot, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		b.t.Fatal(err)
	}
	path := filepath.Join(artifacts(b.t), name)
	if err := os.WriteFile(path, shot, 0o644); err != nil {
		b.t.Fatal(err)
	}
	return path
}

// phone is a phone-sized screen.
func phone() chromedp.Action[chromedp.Void] { return chromedp.EmulateViewport(390, 844) }
