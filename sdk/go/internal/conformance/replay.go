// Package conformance replays tests/conformance (the shared corpus) through any rift.Client,
// as tests/conformance/README.md describes, and writes the lane's JSON-lines results.
package conformance

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/rift-mock/rift/sdk/go/rift"
)

// DefaultOffset is the Go client's port offset.
const DefaultOffset = 13000

// Lane is one client on one transport and tier.
type Lane struct {
	Client    rift.Client
	Transport string // embedded, spawn, connect
	Tier      string // interpreter
	Dir       string // tests/conformance
	Offset    int
	Tags      map[string]bool // the tags this lane has
}

// Result is one line of the results file.
type Result struct {
	Client    string `json:"client"`
	Transport string `json:"transport"`
	Tier      string `json:"tier"`
	Corpus    string `json:"corpus"`
	Fixture   string `json:"fixture"`
	Stub      *int   `json:"stub"`
	Step      *int   `json:"step"`
	Outcome   string `json:"outcome"`
	Reason    string `json:"reason"`
}

type manifest struct {
	Fixtures []struct {
		File     string   `json:"file"`
		Port     int      `json:"port"`
		Name     string   `json:"name"`
		Requires []string `json:"requires"`
	} `json:"fixtures"`
}

type skipEntry struct {
	Corpus  string `json:"corpus"`
	Fixture string `json:"fixture"`
	Stub    *int   `json:"stub"`
	Why     string `json:"why"`
}

type step struct {
	Request struct {
		Method  string            `json:"method"`
		Path    string            `json:"path"`
		Headers map[string]string `json:"headers"`
		Body    json.RawMessage   `json:"body"`
	} `json:"request"`
	Expect struct {
		Status       *int    `json:"status"`
		BodyContains *string `json:"bodyContains"`
		BodyEquals   *string `json:"bodyEquals"`
	} `json:"expect"`
}

type fixtureDoc struct {
	Stubs []struct {
		Verify *struct {
			Sequence []step `json:"sequence"`
		} `json:"_verify"`
	} `json:"stubs"`
}

// Corpora in replay order.
var Corpora = []string{"rift", "reference-rift"}

type loaded struct {
	corpus, name string
	port         int
	text         string
	skipWhy      string // the whole fixture is skipped
	refused      string // creation failed
	doc          fixtureDoc
}

var hostPort = regexp.MustCompile(`(localhost|127\.0\.0\.1):(\d+)`)

// Run replays every fixture and returns one Result per step (and per skipped fixture). An
// error means the lane could not run at all (unreadable corpus, admin API failure).
func Run(l Lane) ([]Result, error) {
	var skips struct {
		Skips []skipEntry `json:"skips"`
	}
	if err := readJSON(filepath.Join(l.Dir, "skips.json"), &skips); err != nil {
		return nil, err
	}
	manifests := map[string]manifest{}
	ports := map[int]bool{}
	for _, c := range Corpora {
		var m manifest
		if err := readJSON(filepath.Join(l.Dir, c, "manifest.json"), &m); err != nil {
			return nil, err
		}
		manifests[c] = m
		for _, f := range m.Fixtures {
			ports[f.Port] = true
		}
	}
	if err := l.Client.DeleteAll(); err != nil {
		return nil, fmt.Errorf("DELETE /imposters before the lane: %w", err)
	}
	defer l.Client.DeleteAll() //nolint:errcheck // best effort; the lane's outcome is already known

	var fixtures []*loaded
	for _, c := range Corpora {
		base := filepath.Join(l.Dir, c)
		for _, f := range manifests[c].Fixtures {
			fx := &loaded{corpus: c, name: strings.TrimSuffix(filepath.Base(f.File), ".json"),
				port: f.Port + l.Offset}
			fixtures = append(fixtures, fx)
			for _, tag := range f.Requires {
				if !l.Tags[tag] {
					fx.skipWhy = fmt.Sprintf("the lane lacks tag %q", tag)
					break
				}
			}
			for _, s := range skips.Skips {
				if fx.skipWhy == "" && s.Corpus == c && s.Fixture == fx.name && s.Stub == nil {
					fx.skipWhy = s.Why
				}
			}
			if fx.skipWhy != "" {
				continue
			}
			raw, err := os.ReadFile(filepath.Join(base, f.File))
			if err != nil {
				return nil, err
			}
			fx.text = rewrite(string(raw), f.Port, l.Offset, ports, filepath.Dir(filepath.Join(base, f.File)))
			if err := json.Unmarshal([]byte(fx.text), &fx.doc); err != nil {
				return nil, fmt.Errorf("%s/%s: %w", c, f.File, err)
			}
		}
	}
	// Create every fixture first: some proxy to others.
	for _, fx := range fixtures {
		if fx.skipWhy != "" {
			continue
		}
		if _, err := l.Client.CreateJSON(fx.text); err != nil {
			fx.refused = "POST /imposters refused the fixture: " + err.Error()
		}
	}
	var results []Result
	for _, fx := range fixtures {
		res := Result{Client: "go", Transport: l.Transport, Tier: l.Tier, Corpus: fx.corpus, Fixture: fx.name}
		if fx.skipWhy != "" {
			res.Outcome, res.Reason = "skip", fx.skipWhy
			results = append(results, res)
			continue
		}
		for si, stub := range fx.doc.Stubs {
			if stub.Verify == nil {
				continue
			}
			why := ""
			for _, s := range skips.Skips {
				if s.Corpus == fx.corpus && s.Fixture == fx.name && s.Stub != nil && *s.Stub == si {
					why = s.Why
				}
			}
			for pi, st := range stub.Verify.Sequence {
				r := res
				r.Stub, r.Step = intp(si), intp(pi)
				switch {
				case why != "":
					r.Outcome, r.Reason = "skip", why
				case fx.refused != "":
					r.Outcome, r.Reason = "fail", fx.refused
				default:
					r.Outcome, r.Reason = "pass", ""
					if reason := replayStep(l.Client, fx.port, st); reason != "" {
						r.Outcome, r.Reason = "fail", reason
					}
				}
				results = append(results, r)
			}
		}
	}
	if err := l.Client.DeleteAll(); err != nil {
		return results, fmt.Errorf("DELETE /imposters after the lane: %w", err)
	}
	return results, nil
}

func intp(i int) *int { return &i }

func readJSON(path string, v any) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// rewrite shifts the fixture's port and every localhost:P / 127.0.0.1:P of a manifest port,
// and anchors "data/ paths at the corpus folder.
func rewrite(text string, port, offset int, ports map[int]bool, fixtureDir string) string {
	text = hostPort.ReplaceAllStringFunc(text, func(m string) string {
		host, p, _ := strings.Cut(m, ":")
		n, _ := strconv.Atoi(p)
		if !ports[n] {
			return m
		}
		return host + ":" + strconv.Itoa(n+offset)
	})
	portRe := regexp.MustCompile(`"port"(\s*):(\s*)` + strconv.Itoa(port) + `\b`)
	done := false
	text = portRe.ReplaceAllStringFunc(text, func(m string) string {
		if done {
			return m
		}
		done = true
		return portRe.ReplaceAllString(m, `"port"${1}:${2}`+strconv.Itoa(port+offset))
	})
	corpusDir, _ := filepath.Abs(filepath.Dir(fixtureDir)) // <corpus>/imposters -> <corpus>
	dataDir, _ := json.Marshal(corpusDir + "/data/")
	return strings.ReplaceAll(text, `"data/`, strings.TrimSuffix(string(dataDir), `"`))
}

func replayStep(c rift.Client, port int, st step) string {
	req := rift.Request{Method: st.Request.Method, Path: st.Request.Path}
	if req.Method == "" {
		req.Method = "GET"
	}
	names := make([]string, 0, len(st.Request.Headers))
	for k := range st.Request.Headers {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		req.Headers = append(req.Headers, [2]string{k, st.Request.Headers[k]})
	}
	if b := bytes.TrimSpace(st.Request.Body); len(b) > 0 && string(b) != "null" {
		var s string
		if json.Unmarshal(b, &s) == nil {
			req.Body = []byte(s)
		} else {
			var compact bytes.Buffer
			if err := json.Compact(&compact, b); err != nil {
				return "bad request body in the fixture: " + err.Error()
			}
			req.Body = compact.Bytes()
		}
	}
	resp, err := c.Call(port, req)
	if err != nil {
		return fmt.Sprintf("%s %s: no answer: %v", req.Method, req.Path, err)
	}
	body := string(resp.Body)
	var problems []string
	if e := st.Expect.Status; e != nil && *e != resp.Status {
		problems = append(problems, fmt.Sprintf("status: expected %d, got %d", *e, resp.Status))
	}
	if e := st.Expect.BodyContains; e != nil && !strings.Contains(body, *e) {
		var compact bytes.Buffer
		if json.Compact(&compact, resp.Body) != nil || !strings.Contains(compact.String(), *e) {
			problems = append(problems, fmt.Sprintf("body: expected to contain %q, got %q", *e, clip(body)))
		}
	}
	if e := st.Expect.BodyEquals; e != nil && *e != body {
		problems = append(problems, fmt.Sprintf("body: expected %q, got %q", *e, clip(body)))
	}
	if len(problems) == 0 {
		return ""
	}
	return fmt.Sprintf("%s %s: %s", req.Method, req.Path, strings.Join(problems, "; "))
}

func clip(s string) string {
	if len(s) > 300 {
		return s[:300] + "..."
	}
	return s
}

// WriteResults writes <dir>/go-<transport>-<tier>.jsonl and returns its path.
func WriteResults(dir, transport, tier string, results []Result) (string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	for _, r := range results {
		if err := enc.Encode(r); err != nil {
			return "", err
		}
	}
	path := filepath.Join(dir, fmt.Sprintf("go-%s-%s.jsonl", transport, tier))
	return path, os.WriteFile(path, buf.Bytes(), 0o644)
}

// Counts tallies outcomes.
func Counts(results []Result) (pass, fail, skip int) {
	for _, r := range results {
		switch r.Outcome {
		case "pass":
			pass++
		case "fail":
			fail++
		default:
			skip++
		}
	}
	return
}
