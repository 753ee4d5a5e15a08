package rifttest_test

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"testing"

	"github.com/rift-mock/rift/sdk/go/rift"
	"github.com/rift-mock/rift/sdk/go/rifttest"
)

func TestMain(m *testing.M) { os.Exit(rifttest.Main(m)) }

func usersImposter() *rift.ImposterBuilder {
	return rift.NewImposter("users").Record().
		Stub(rift.OnGet("/users/1").WillReturn(rift.OKJSON(`{"id":1,"name":"Ada"}`)))
}

func TestImposterOverRealSocket(t *testing.T) {
	r := rifttest.New(t)
	port := r.Imposter(usersImposter())
	resp, err := http.Get(r.URL(port) + "/users/1")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || string(body) != `{"id":1,"name":"Ada"}` {
		t.Fatalf("got %d %q", resp.StatusCode, body)
	}
	r.Verify(port, rift.OnGet("/users/1"), rift.Once())
	r.Verify(port, rift.OnGet("/users/2"), rift.Never())
}

func TestSharedEngineAndCleanup(t *testing.T) {
	r := rifttest.New(t)
	var port int
	t.Run("inner", func(t *testing.T) {
		inner := rifttest.New(t)
		if inner.Client != r.Client {
			t.Fatalf("New under Main should share the engine")
		}
		port = inner.Imposter(usersImposter())
		if got := inner.Get(port, "/users/1"); got.Status != 200 {
			t.Fatalf("status %d", got.Status)
		}
	})
	// The inner test's cleanup has deleted its imposter.
	_, err := r.Client.Imposter(port)
	var apiErr *rift.APIError
	if !errors.As(err, &apiErr) || apiErr.Status != 404 {
		t.Fatalf("imposter %d should be gone after the subtest, got %v", port, err)
	}
}

func TestPerTestEngine(t *testing.T) {
	var own rift.Client
	t.Run("own", func(t *testing.T) {
		r := rifttest.New(t, rifttest.PerTest())
		own = r.Client
		if got := r.Get(r.Imposter(usersImposter()), "/users/1"); got.Status != 200 {
			t.Fatalf("status %d", got.Status)
		}
	})
	if _, err := own.Request("GET", "/imposters", ""); !errors.Is(err, rift.ErrClosed) {
		t.Fatalf("the per-test engine should be closed after its test, got %v", err)
	}
}

// recorder is a testing.TB that records failures instead of failing.
type recorder struct {
	testing.TB
	errors []string
}

func (r *recorder) Errorf(format string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}
func (r *recorder) Helper() {}

func TestVerifyFailsTheTest(t *testing.T) {
	r := rifttest.New(t)
	port := r.Imposter(usersImposter())
	r.Get(port, "/users/1")
	rec := &recorder{TB: t}
	wrapped := rifttest.New(rec, rifttest.WithClient(r.Client))
	wrapped.Verify(port, rift.OnGet("/users/1"), rift.Times(2))
	if len(rec.errors) != 1 {
		t.Fatalf("Verify with the wrong count should fail the test once, got %v", rec.errors)
	}
	rec.errors = nil
	wrapped.Verify(port, rift.OnGet("/users/1"), rift.Times(1))
	if len(rec.errors) != 0 {
		t.Fatalf("Verify with the right count should pass, got %v", rec.errors)
	}
}
