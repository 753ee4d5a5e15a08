package rift_test

import (
	"errors"
	"os"
	"syscall"
	"testing"

	"github.com/rift-mock/rift/sdk/go/internal/testenv"
	"github.com/rift-mock/rift/sdk/go/rift"
)

// The same scenario on each transport: the client interface behaves the same.
func TestTransports(t *testing.T) {
	lanes := map[string]func(t *testing.T) rift.Client{
		"embedded": func(t *testing.T) rift.Client { return embedded(t) },
		"spawn": func(t *testing.T) rift.Client {
			c, err := rift.Spawn(rift.SpawnOptions{Bin: testenv.RiftBin(t), AllowInjection: true})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { c.Close() })
			return c
		},
		"connect": func(t *testing.T) rift.Client {
			c, err := rift.Connect(testenv.StartServer(t, "--allowInjection"))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { c.Close() })
			return c
		},
	}
	for _, name := range []string{"embedded", "spawn", "connect"} {
		t.Run(name, func(t *testing.T) {
			c := lanes[name](t)
			if c.Transport() != name {
				t.Fatalf("transport %q", c.Transport())
			}
			port, err := c.Create(rift.NewImposter("users").Record().
				Stub(rift.OnGet("/users/1").WillReturn(rift.OKJSON(`{"id":1}`))).
				Stub(rift.OnPost("/users").WithJSONBody(map[string]any{"name": "Ada"}).
					WillReturn(rift.JSONResponse(201, map[string]any{"id": 2}))).
				Stub(rift.OnGet("/count").WillReturn(rift.Inject(
					"function (config) { config.state.n = (config.state.n || 0) + 1; return { body: 'n=' + config.state.n }; }"))).
				DefaultResponse(rift.NotFound().Body("none")))
			if err != nil {
				t.Fatal(err)
			}
			defer c.Delete(port)
			r, err := c.Call(port, rift.Request{Path: "/users/1"})
			if err != nil || r.Status != 200 || r.Text() != `{"id":1}` || r.Header("content-type") != "application/json" {
				t.Fatalf("GET /users/1: %+v %v", r, err)
			}
			r, err = c.Call(port, rift.Request{Method: "POST", Path: "/users", Body: []byte(`{"name":"Ada","x":1}`),
				Headers: [][2]string{{"Content-Type", "application/json"}}})
			if err != nil || r.Status != 201 {
				t.Fatalf("POST /users: %+v %v", r, err)
			}
			for want := 1; want <= 2; want++ {
				r, err = c.Call(port, rift.Request{Path: "/count"})
				if err != nil || r.Text() != "n="+string(rune('0'+want)) {
					t.Fatalf("inject: %+v %v", r, err)
				}
			}
			if r, _ = c.Call(port, rift.Request{Path: "/nope"}); r.Status != 404 || r.Text() != "none" {
				t.Fatalf("default response: %+v", r)
			}
			if err := c.Verify(port, rift.OnGet("/users/1"), rift.Times(1)); err != nil {
				t.Fatal(err)
			}
			if err := c.Verify(port, rift.OnPost("/users").WithJSONBody(map[string]any{"name": "Ada"}), rift.Once()); err != nil {
				t.Fatal(err)
			}
			if err := c.Verify(port, rift.OnGet("/count"), rift.AtLeast(2)); err != nil {
				t.Fatal(err)
			}
			var verr *rift.VerificationError
			if err := c.Verify(port, rift.OnGet("/users/1"), rift.Times(2)); !errors.As(err, &verr) || verr.Actual != 1 {
				t.Fatalf("Times(2) should fail with 1 actual, got %v", err)
			}
		})
	}
}

func TestSpawnCloseStopsTheProcess(t *testing.T) {
	c, err := rift.Spawn(rift.SpawnOptions{Bin: testenv.RiftBin(t)})
	if err != nil {
		t.Fatal(err)
	}
	pid := c.Pid()
	if pid <= 0 {
		t.Fatalf("pid %d", pid)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if err := c.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	p, _ := os.FindProcess(pid)
	if err := p.Signal(syscall.Signal(0)); err == nil {
		t.Fatalf("pid %d still runs after Close", pid)
	}
	if _, err := c.Request("GET", "/", ""); !errors.Is(err, rift.ErrClosed) {
		t.Fatalf("call after Close: %v", err)
	}
}

func TestSpawnReportsAMissingBinary(t *testing.T) {
	_, err := rift.Spawn(rift.SpawnOptions{Bin: "/nonexistent/rift"})
	if err == nil {
		t.Fatal("want an error")
	}
}
