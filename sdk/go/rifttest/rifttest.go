// Package rifttest wires Rift into `go test`: one embedded engine per test binary (TestMain)
// or per test, and imposters per test that t.Cleanup deletes.
//
//	func TestMain(m *testing.M) { os.Exit(rifttest.Main(m)) }
//
//	func TestUsers(t *testing.T) {
//		r := rifttest.New(t)
//		port := r.Imposter(rift.NewImposter("users").Record().
//			Stub(rift.OnGet("/users/1").WillReturn(rift.OKJSON(`{"id":1}`))))
//		// ... exercise code against http://127.0.0.1:<port> ...
//		r.Verify(port, rift.OnGet("/users/1"), rift.Times(1))
//	}
package rifttest

import (
	"fmt"
	"net/http"
	"sync"
	"testing"

	"github.com/rift-mock/rift/sdk/go/rift"
)

// DefaultOptions are the engine options of Main and New: JavaScript injection allowed.
var DefaultOptions = rift.EmbeddedOptions{AllowInjection: true}

var shared struct {
	sync.Mutex
	client rift.Client
}

type config struct {
	opts    rift.EmbeddedOptions
	client  rift.Client
	perTest bool
}

// Option adjusts Main or New.
type Option func(*config)

// WithOptions sets the embedded engine's options.
func WithOptions(o rift.EmbeddedOptions) Option { return func(c *config) { c.opts = o } }

// WithClient uses a client the caller made (Spawn, Connect); rifttest does not close it.
func WithClient(client rift.Client) Option { return func(c *config) { c.client = client } }

// PerTest makes New open an engine of its own for the test even when Main shares one.
func PerTest() Option { return func(c *config) { c.perTest = true } }

func configure(opts []Option) config {
	c := config{opts: DefaultOptions}
	for _, o := range opts {
		o(&c)
	}
	return c
}

// Main opens one embedded engine (or takes WithClient's), runs the tests, closes the engine
// and returns m.Run's code: func TestMain(m *testing.M) { os.Exit(rifttest.Main(m)) }.
func Main(m *testing.M, opts ...Option) int {
	cfg := configure(opts)
	client := cfg.client
	if client == nil {
		c, err := rift.Embedded(cfg.opts)
		if err != nil {
			fmt.Println("rifttest:", err)
			return 1
		}
		defer c.Close()
		client = c
	}
	shared.Lock()
	shared.client = client
	shared.Unlock()
	defer func() {
		shared.Lock()
		shared.client = nil
		shared.Unlock()
	}()
	return m.Run()
}

// Rift is a client bound to one test: its helpers fail the test instead of returning errors.
type Rift struct {
	rift.Client
	t testing.TB
}

// New returns the test's Rift: the engine of Main when there is one, else an engine of the
// test's own that t.Cleanup closes.
func New(t testing.TB, opts ...Option) *Rift {
	t.Helper()
	cfg := configure(opts)
	if cfg.client != nil {
		return &Rift{Client: cfg.client, t: t}
	}
	if !cfg.perTest {
		shared.Lock()
		c := shared.client
		shared.Unlock()
		if c != nil {
			return &Rift{Client: c, t: t}
		}
	}
	c, err := rift.Embedded(cfg.opts)
	if err != nil {
		t.Fatalf("rifttest: %v", err)
	}
	t.Cleanup(func() {
		if err := c.Close(); err != nil {
			t.Errorf("rifttest: closing the engine: %v", err)
		}
	})
	return &Rift{Client: c, t: t}
}

// Imposter creates the imposter (on a port the engine chooses unless the builder sets one)
// and deletes it when the test ends. It returns the port.
func (r *Rift) Imposter(b *rift.ImposterBuilder) int {
	r.t.Helper()
	port, err := r.Client.Create(b)
	if err != nil {
		r.t.Fatalf("rifttest: creating imposter: %v", err)
	}
	r.cleanup(port)
	return port
}

// ImposterJSON creates an imposter from Mountebank JSON, deleted when the test ends.
func (r *Rift) ImposterJSON(imposterJSON string) int {
	r.t.Helper()
	port, err := r.Client.CreateJSON(imposterJSON)
	if err != nil {
		r.t.Fatalf("rifttest: creating imposter: %v", err)
	}
	r.cleanup(port)
	return port
}

func (r *Rift) cleanup(port int) {
	r.t.Cleanup(func() {
		if err := r.Client.Delete(port); err != nil && err != rift.ErrClosed {
			r.t.Errorf("rifttest: deleting imposter %d: %v", port, err)
		}
	})
}

// Get calls GET path on the imposter (through the gateway when embedded) and fails the test
// on a carrier error.
func (r *Rift) Get(port int, path string) *rift.Response {
	r.t.Helper()
	return r.Send(port, rift.Request{Method: http.MethodGet, Path: path})
}

// Send calls the imposter and fails the test on a carrier error.
func (r *Rift) Send(port int, req rift.Request) *rift.Response {
	r.t.Helper()
	resp, err := r.Client.Call(port, req)
	if err != nil {
		r.t.Fatalf("rifttest: %s %s on %d: %v", req.Method, req.Path, port, err)
	}
	return resp
}

// URL is http://127.0.0.1:<port>, the imposter's real socket.
func (r *Rift) URL(port int) string { return fmt.Sprintf("http://127.0.0.1:%d", port) }

// Verify marks the test failed (and goes on) unless the journal of port holds times requests
// matching stub. The error-returning form is r.Client.Verify.
func (r *Rift) Verify(port int, stub *rift.StubBuilder, times rift.TimesMatcher) {
	r.t.Helper()
	if err := r.Client.Verify(port, stub, times); err != nil {
		r.t.Errorf("%v", err)
	}
}
