// Package rift is the Go SDK of Rift, a Mountebank-compatible mock server: three transports
// (librift in process, a spawned rift binary, an existing server) behind one Client, a typed
// stub DSL producing Mountebank imposter JSON, and verification against the request journal.
package rift

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
)

// Request is one HTTP request, to the admin API (Client.Do) or to an imposter (Client.Call).
type Request struct {
	Method  string      // default GET
	Path    string      // path and query, sent as is
	Headers [][2]string // name, value pairs; repeats kept
	Body    []byte
}

// Response is an HTTP answer: status, headers (repeats kept, in order) and the raw body.
type Response struct {
	Status  int
	Headers [][2]string
	Body    []byte
}

// Header returns the first value of the named header (case-insensitive), or "".
func (r *Response) Header(name string) string {
	for _, h := range r.Headers {
		if strings.EqualFold(h[0], name) {
			return h[1]
		}
	}
	return ""
}

// Text is the body as a string.
func (r *Response) Text() string { return string(r.Body) }

// JSON decodes the body into v.
func (r *Response) JSON(v any) error { return json.Unmarshal(r.Body, v) }

// Client is the one interface of the three transports.
type Client interface {
	// Transport is "embedded", "spawn" or "connect".
	Transport() string
	// Do sends one admin API call (POST /imposters, GET /imposters/4545, ...). Any HTTP status
	// is a Response; errors are the carrier's (*Error for librift, net errors for HTTP).
	Do(req Request) (*Response, error)
	// Call sends a request to the imposter on port: through the gateway in process
	// (/__rift/<port><path>) for the embedded transport, over HTTP/1.1 to 127.0.0.1 otherwise.
	Call(port int, req Request) (*Response, error)
	// Close stops what the client started (engine, process); idempotent.
	Close() error

	// Request is the raw escape hatch: one admin call with an optional body.
	Request(method, path string, body string) (*Response, error)
	// Create posts an imposter built with the DSL; it returns the imposter's port (chosen by
	// the engine when the builder has none).
	Create(imposter *ImposterBuilder) (int, error)
	// CreateJSON posts an imposter given as Mountebank JSON and returns its port.
	CreateJSON(imposterJSON string) (int, error)
	// Imposter returns GET /imposters/<port> decoded.
	Imposter(port int) (*ImposterState, error)
	// Delete deletes one imposter; DeleteAll deletes every imposter.
	Delete(port int) error
	DeleteAll() error
	// Verify checks how many recorded requests on port match the stub's request side.
	Verify(port int, stub *StubBuilder, times TimesMatcher) error
}

// Error is a failure reported by librift: a negative status, its name and message.
type Error struct {
	Code    int32  `json:"code"`
	Name    string `json:"name"`
	Message string `json:"message"`
}

func (e *Error) Error() string { return fmt.Sprintf("rift: %s (%d): %s", e.Name, e.Code, e.Message) }

// ErrClosed is returned by every call on a closed client.
var ErrClosed = errors.New("rift: client is closed")

// APIError is an admin API answer outside 2xx (Mountebank's {"errors": [...]}).
type APIError struct {
	Status  int
	Code    string // errors[0].code, e.g. "bad data"
	Message string // errors[0].message
	Body    string
}

func (e *APIError) Error() string {
	if e.Code != "" || e.Message != "" {
		return fmt.Sprintf("rift: admin API answered %d: %s: %s", e.Status, e.Code, e.Message)
	}
	return fmt.Sprintf("rift: admin API answered %d: %s", e.Status, e.Body)
}

func apiError(r *Response) error {
	if r.Status >= 200 && r.Status < 300 {
		return nil
	}
	e := &APIError{Status: r.Status, Body: string(r.Body)}
	var body struct {
		Errors []struct {
			Code    string `json:"code"`
			Message string `json:"message"`
		} `json:"errors"`
	}
	if json.Unmarshal(r.Body, &body) == nil && len(body.Errors) > 0 {
		e.Code, e.Message = body.Errors[0].Code, body.Errors[0].Message
	}
	return e
}

// VerificationError is what Verify returns when the count does not match.
type VerificationError struct {
	Port     int
	Matcher  string
	Expected string
	Actual   int
	Recorded []RecordedRequest
}

func (e *VerificationError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "rift: verify on port %d: expected %s request(s) matching %s, got %d; recorded:",
		e.Port, e.Expected, e.Matcher, e.Actual)
	if len(e.Recorded) == 0 {
		b.WriteString(" none")
	}
	for _, r := range e.Recorded {
		fmt.Fprintf(&b, "\n  %s %s", r.Method, r.Path)
		if len(r.Query) > 0 {
			q, _ := json.Marshal(r.Query)
			fmt.Fprintf(&b, " query=%s", q)
		}
	}
	return b.String()
}

// RecordedRequest is one entry of an imposter's journal ("requests" of GET /imposters/<port>).
type RecordedRequest struct {
	RequestFrom string          `json:"requestFrom"`
	Method      string          `json:"method"`
	Path        string          `json:"path"`
	Query       map[string]any  `json:"query"`
	Headers     map[string]any  `json:"headers"`
	Body        json.RawMessage `json:"body"`
	Timestamp   string          `json:"timestamp"`
}

// BodyText is the recorded body as text (a JSON string is unquoted; anything else as is).
func (r RecordedRequest) BodyText() string {
	if len(r.Body) == 0 || string(r.Body) == "null" {
		return ""
	}
	var s string
	if json.Unmarshal(r.Body, &s) == nil {
		return s
	}
	return string(r.Body)
}

// ImposterState is GET /imposters/<port>, decoded in part; Raw keeps the whole answer.
type ImposterState struct {
	Port          int               `json:"port"`
	Protocol      string            `json:"protocol"`
	Name          string            `json:"name"`
	NumberOfReqs  int               `json:"numberOfRequests"`
	Requests      []RecordedRequest `json:"requests"`
	Stubs         []json.RawMessage `json:"stubs"`
	RecordRequest bool              `json:"recordRequests"`
	Raw           json.RawMessage   `json:"-"`
}

// common carries the admin-API methods every transport shares, on top of Do.
type common struct {
	do func(Request) (*Response, error)
}

func (c common) Request(method, path string, body string) (*Response, error) {
	req := Request{Method: method, Path: path}
	if body != "" {
		req.Body = []byte(body)
		req.Headers = [][2]string{{"Content-Type", "application/json"}}
	}
	return c.do(req)
}

func (c common) CreateJSON(imposterJSON string) (int, error) {
	r, err := c.Request(http.MethodPost, "/imposters", imposterJSON)
	if err != nil {
		return 0, err
	}
	if err := apiError(r); err != nil {
		return 0, err
	}
	var created struct {
		Port int `json:"port"`
	}
	if err := json.Unmarshal(r.Body, &created); err != nil {
		return 0, fmt.Errorf("rift: POST /imposters answer: %w", err)
	}
	return created.Port, nil
}

func (c common) Create(imposter *ImposterBuilder) (int, error) {
	data, err := imposter.JSON()
	if err != nil {
		return 0, err
	}
	return c.CreateJSON(string(data))
}

func (c common) Imposter(port int) (*ImposterState, error) {
	r, err := c.do(Request{Method: http.MethodGet, Path: fmt.Sprintf("/imposters/%d", port)})
	if err != nil {
		return nil, err
	}
	if err := apiError(r); err != nil {
		return nil, err
	}
	st := &ImposterState{Raw: json.RawMessage(r.Body)}
	if err := json.Unmarshal(r.Body, st); err != nil {
		return nil, fmt.Errorf("rift: GET /imposters/%d answer: %w", port, err)
	}
	return st, nil
}

func (c common) Delete(port int) error {
	r, err := c.do(Request{Method: http.MethodDelete, Path: fmt.Sprintf("/imposters/%d", port)})
	if err != nil {
		return err
	}
	return apiError(r)
}

func (c common) DeleteAll() error {
	r, err := c.do(Request{Method: http.MethodDelete, Path: "/imposters"})
	if err != nil {
		return err
	}
	return apiError(r)
}

func (c common) Verify(port int, stub *StubBuilder, times TimesMatcher) error {
	st, err := c.Imposter(port)
	if err != nil {
		return err
	}
	n := 0
	for _, r := range st.Requests {
		ok, err := stub.Matches(r)
		if err != nil {
			return err
		}
		if ok {
			n++
		}
	}
	if !times.ok(n) {
		return &VerificationError{Port: port, Matcher: stub.Describe(), Expected: times.String(),
			Actual: n, Recorded: st.Requests}
	}
	return nil
}
