package conformance_test

import (
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/rift-mock/rift/sdk/go/internal/conformance"
	"github.com/rift-mock/rift/sdk/go/internal/testenv"
	"github.com/rift-mock/rift/sdk/go/rift"
)

// The three lanes run one after another (no t.Parallel), each deleting every imposter before
// and after, on the Go client's port offset.

func offset(t *testing.T) int {
	if v := os.Getenv("RIFT_CONFORMANCE_PORT_OFFSET"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil {
			t.Fatalf("RIFT_CONFORMANCE_PORT_OFFSET=%q: %v", v, err)
		}
		return n
	}
	return conformance.DefaultOffset
}

// tags are the lane's tags (README: injection needs allowInjection and JavaScript in the build).
func tags(t *testing.T, c rift.Client) map[string]bool {
	r, err := c.Request("GET", "/config", "")
	if err != nil {
		t.Fatal(err)
	}
	var cfg struct {
		Options struct {
			AllowInjection bool `json:"allowInjection"`
		} `json:"options"`
	}
	if err := r.JSON(&cfg); err != nil {
		t.Fatalf("GET /config: %v", err)
	}
	js := true
	if c.Transport() == "embedded" {
		info, err := rift.BuildInfo()
		if err != nil {
			t.Fatal(err)
		}
		js = strings.Contains(info, `"javascript"`)
	}
	inj := cfg.Options.AllowInjection && js
	return map[string]bool{"injection": inj, "shell": cfg.Options.AllowInjection,
		"proxy": true, "https": true}
}

func runLane(t *testing.T, c rift.Client) {
	t.Helper()
	lane := conformance.Lane{Client: c, Transport: c.Transport(), Tier: "interpreter",
		Dir: testenv.Env("RIFT_CONFORMANCE_DIR", "../../tests/conformance"), Offset: offset(t)}
	lane.Tags = tags(t, c)
	results, err := conformance.Run(lane)
	dir := testenv.Env("RIFT_RESULTS", "../../build/conformance-results")
	path, werr := conformance.WriteResults(dir, lane.Transport, lane.Tier, results)
	if werr != nil {
		t.Errorf("writing results: %v", werr)
	}
	if err != nil {
		t.Fatalf("lane %s: %v", lane.Transport, err)
	}
	pass, fail, skip := conformance.Counts(results)
	t.Logf("go-%s-%s: %d passed, %d failed, %d skipped -> %s", lane.Transport, lane.Tier, pass, fail, skip, path)
	for _, r := range results {
		if r.Outcome == "fail" {
			t.Errorf("%s/%s stub %d step %d: %s", r.Corpus, r.Fixture, *r.Stub, *r.Step, r.Reason)
		}
	}
	if pass == 0 {
		t.Errorf("lane %s passed nothing", lane.Transport)
	}
}

func TestConformanceEmbedded(t *testing.T) {
	c, err := rift.Embedded(rift.EmbeddedOptions{AllowInjection: true, Tier: "interpreter"})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	runLane(t, c)
}

func TestConformanceSpawn(t *testing.T) {
	c, err := rift.Spawn(rift.SpawnOptions{Bin: testenv.RiftBin(t), AllowInjection: true, Engine: "interp"})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	runLane(t, c)
}

func TestConformanceConnect(t *testing.T) {
	url := testenv.StartServer(t, "--allowInjection", "--engine", "interp")
	c, err := rift.Connect(url)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	runLane(t, c)
}
