package rift_test

import (
	"bytes"
	"crypto/tls"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/rift-mock/rift/sdk/go/rift"
)

func embedded(t *testing.T) *rift.EmbeddedClient {
	t.Helper()
	c, err := rift.Embedded(rift.EmbeddedOptions{AllowInjection: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func TestEmbeddedErrorsCarryCodeNameMessage(t *testing.T) {
	_, err := rift.Embedded(rift.EmbeddedOptions{Tier: "jit"})
	var e *rift.Error
	if !errors.As(err, &e) || e.Code != -4 || e.Name != "RIFT_ERR_UNSUPPORTED" || e.Message == "" {
		t.Fatalf("tier jit: want RIFT_ERR_UNSUPPORTED, got %#v", err)
	}
	_, err = rift.Embedded(rift.EmbeddedOptions{Raw: `{"allowInjektion": true}`})
	if !errors.As(err, &e) || e.Code != -1 || e.Name != "RIFT_ERR_ARGUMENT" {
		t.Fatalf("unknown key: want RIFT_ERR_ARGUMENT, got %#v", err)
	}
}

func TestEmbeddedCloseIsIdempotent(t *testing.T) {
	c, err := rift.Embedded(rift.EmbeddedOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if err := c.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	if _, err := c.Request("GET", "/imposters", ""); !errors.Is(err, rift.ErrClosed) {
		t.Fatalf("call after Close: %v", err)
	}
}

func TestAdminErrorsAreAPIErrors(t *testing.T) {
	c := embedded(t)
	_, err := c.CreateJSON(`{"protocol": "gopher"}`)
	var apiErr *rift.APIError
	if !errors.As(err, &apiErr) || apiErr.Status != 400 || apiErr.Code != "bad data" {
		t.Fatalf("want a 400 bad data, got %v", err)
	}
}

// Bodies are read by length: NUL bytes survive the gateway both ways.
func TestEmbeddedBinaryBodies(t *testing.T) {
	c := embedded(t)
	payload := []byte{0, 1, 2, 0, 255, 'a', 0}
	port, err := c.Create(rift.NewImposter("bin").Record().
		Stub(rift.OnPost("/bin").WillReturn(rift.OK().Binary(base64.StdEncoding.EncodeToString(payload)))))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := c.Call(port, rift.Request{Method: "POST", Path: "/bin", Body: []byte("x\x00y")})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Status != 200 || !bytes.Equal(resp.Body, payload) {
		t.Fatalf("got %d %v, want %v", resp.Status, resp.Body, payload)
	}
}

// The host's TLS (crypto/tls) and Rift's OpenSSL in one process: an https imposter created
// through the embedded engine, called over its real socket with Go's TLS client.
func TestHostTLSAgainstEmbeddedHTTPSImposter(t *testing.T) {
	c := embedded(t)
	port, err := c.Create(rift.NewImposter("tls").HTTPS().Record().
		Stub(rift.OnGet("/secure").WillReturn(rift.OKText("over tls"))))
	if err != nil {
		t.Fatal(err)
	}
	client := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{
		Proxy:           nil,
		TLSClientConfig: &tls.Config{InsecureSkipVerify: true}, //nolint:gosec // the default self-signed cert
	}}
	resp, err := client.Get(fmt.Sprintf("https://127.0.0.1:%d/secure", port))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.TLS == nil || !resp.TLS.HandshakeComplete {
		t.Fatal("no TLS handshake")
	}
	if resp.StatusCode != 200 || string(body) != "over tls" {
		t.Fatalf("got %d %q", resp.StatusCode, body)
	}
	if err := c.Verify(port, rift.OnGet("/secure"), rift.Once()); err != nil {
		t.Fatal(err)
	}
}

func TestServeAdminThenConnect(t *testing.T) {
	c := embedded(t)
	url, err := c.ServeAdmin("127.0.0.1", 0)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(url, "http://127.0.0.1:") {
		t.Fatalf("admin url %q", url)
	}
	if _, err := c.ServeAdmin("127.0.0.1", 0); err == nil {
		t.Fatal("a second ServeAdmin should be RIFT_ERR_STATE")
	}
	remote, err := rift.Connect(url)
	if err != nil {
		t.Fatal(err)
	}
	defer remote.Close()
	port, err := remote.Create(rift.NewImposter("via-http").Stub(rift.OnGet("/x").WillReturn(rift.OKText("x"))))
	if err != nil {
		t.Fatal(err)
	}
	got, err := c.Call(port, rift.Request{Path: "/x"}) // created over HTTP, called in process
	if err != nil || got.Text() != "x" {
		t.Fatalf("got %v %v", got, err)
	}
}
