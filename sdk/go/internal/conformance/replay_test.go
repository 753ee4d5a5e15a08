package conformance_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/rift-mock/rift/sdk/go/internal/conformance"
	"github.com/rift-mock/rift/sdk/go/rift"
)

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// The replayer itself: a wrong expectation is a fail, a skips.json stub is a skip, a lacking
// tag skips the fixture, ports and localhost:P are shifted.
func TestReplayerReportsFailures(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "skips.json"), `{"skips": [{"corpus": "rift", "fixture": "a", "stub": 2, "why": "known"}]}`)
	write(t, filepath.Join(dir, "rift/manifest.json"), `{"schemaVersion": 1, "fixtures": [
		{"file": "corpus/imposters/a.json", "port": 4901, "requires": []},
		{"file": "corpus/imposters/b.json", "port": 4902, "requires": ["redis"]}]}`)
	write(t, filepath.Join(dir, "reference-rift/manifest.json"), `{"schemaVersion": 1, "fixtures": [
		{"file": "corpus/imposters/c.json", "port": 4903, "requires": []}]}`)
	write(t, filepath.Join(dir, "rift/corpus/imposters/a.json"), `{"port": 4901, "protocol": "http", "stubs": [
		{"predicates": [{"equals": {"path": "/ok"}}], "responses": [{"is": {"body": {"a": 1}}}],
		 "_verify": {"sequence": [{"request": {"path": "/ok"}, "expect": {"status": 200, "bodyContains": "\"a\":1"}}]}},
		{"predicates": [{"equals": {"path": "/wrong"}}], "responses": [{"is": {"body": "actual"}}],
		 "_verify": {"sequence": [{"request": {"path": "/wrong"}, "expect": {"bodyEquals": "expected"}}]}},
		{"responses": [{"is": {"statusCode": 500}}],
		 "_verify": {"sequence": [{"request": {"path": "/skipped"}, "expect": {"status": 200}}]}}]}`)
	write(t, filepath.Join(dir, "rift/corpus/imposters/b.json"), `{"port": 4902, "protocol": "http"}`)
	write(t, filepath.Join(dir, "reference-rift/corpus/imposters/c.json"), `{"port": 4903, "protocol": "http", "stubs": [
		{"responses": [{"proxy": {"to": "http://localhost:4901", "mode": "proxyAlways"}}],
		 "_verify": {"sequence": [{"request": {"path": "/ok"}, "expect": {"status": 200, "bodyContains": "\"a\":1"}}]}}]}`)
	c, err := rift.Embedded(rift.EmbeddedOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	results, err := conformance.Run(conformance.Lane{Client: c, Transport: "embedded", Tier: "interpreter",
		Dir: dir, Offset: 13000, Tags: map[string]bool{}})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, r := range results {
		key := r.Fixture
		if r.Stub != nil {
			key += "/" + string(rune('0'+*r.Stub))
		}
		got[key] = r.Outcome
	}
	want := map[string]string{"a/0": "pass", "a/1": "fail", "a/2": "skip", "b": "skip", "c/0": "pass"}
	if len(got) != len(want) {
		t.Fatalf("results %v, want %v", got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: %s, want %s (all: %+v)", k, got[k], v, results)
		}
	}
	if p, f, s := conformance.Counts(results); p != 2 || f != 1 || s != 2 {
		t.Errorf("counts %d/%d/%d", p, f, s)
	}
}
