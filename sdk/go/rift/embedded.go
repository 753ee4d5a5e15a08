package rift

import (
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"unsafe"
)

// EmbeddedOptions are rift_engine_open's options (docs/embedding.md); zero values are omitted,
// so the engine's defaults apply.
type EmbeddedOptions struct {
	Threads        int    `json:"threads,omitempty"`
	Tier           string `json:"tier,omitempty"` // "interpreter", "auto", "jit"
	AllowInjection bool   `json:"allowInjection,omitempty"`
	Host           string `json:"host,omitempty"`
	Workdir        string `json:"workdir,omitempty"`
	Datadir        string `json:"datadir,omitempty"`
	Log            *struct {
		Level   string `json:"level,omitempty"`
		File    string `json:"file,omitempty"`
		Console bool   `json:"console,omitempty"`
	} `json:"log,omitempty"`
	// Raw, when set, is sent as the options JSON instead of the fields above.
	Raw string `json:"-"`
}

// EmbeddedClient runs Rift's engine in this process through librift.
type EmbeddedClient struct {
	common
	mu     sync.RWMutex // calls share it; Close takes it alone (rift_engine_close must not race)
	engine uintptr
	closed bool
}

// Embedded loads librift (RIFT_LIB, the embedded copy, or the system loader) and opens an
// engine.
func Embedded(opts EmbeddedOptions) (*EmbeddedClient, error) {
	if err := load(); err != nil {
		return nil, err
	}
	options := opts.Raw
	if options == "" {
		b, err := json.Marshal(opts)
		if err != nil {
			return nil, err
		}
		options = string(b)
	}
	var engine uintptr
	var cerr unsafe.Pointer
	status := cEngineOpen(cstr(options), &engine, &cerr)
	if status != 0 {
		return nil, takeError(status, cerr)
	}
	c := &EmbeddedClient{engine: engine}
	c.common = common{do: c.Do}
	return c, nil
}

// takeError turns a failing status and its out_error JSON into *Error, freeing the JSON.
func takeError(status int32, cerr unsafe.Pointer) error {
	e := &Error{Code: status}
	if cerr != nil {
		text := goString(cerr)
		cFree(cerr)
		if err := json.Unmarshal([]byte(text), e); err != nil {
			e.Message = text
		}
	}
	if e.Name == "" {
		e.Name = goString(cStatusName(status))
	}
	return e
}

func (c *EmbeddedClient) Transport() string { return "embedded" }

// Do sends one admin API call through rift_request.
func (c *EmbeddedClient) Do(req Request) (*Response, error) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	if c.closed {
		return nil, ErrClosed
	}
	method := req.Method
	if method == "" {
		method = http.MethodGet
	}
	var headers *byte
	if len(req.Headers) > 0 {
		b, err := json.Marshal(req.Headers)
		if err != nil {
			return nil, err
		}
		headers = cstr(string(b))
	}
	var body *byte
	if len(req.Body) > 0 {
		body = &req.Body[0]
	}
	var (
		status              int32
		outBody, outHeaders unsafe.Pointer
		outBodyLen          uintptr
		outErr              unsafe.Pointer
	)
	rc := cRequest(c.engine, cstr(method), cstr(req.Path), headers, body, uintptr(len(req.Body)),
		&status, &outBody, &outBodyLen, &outHeaders, &outErr)
	if rc != 0 {
		cFree(outBody)
		cFree(outHeaders)
		return nil, takeError(rc, outErr)
	}
	resp := &Response{Status: int(status), Body: goBytes(outBody, outBodyLen)}
	headerText := goString(outHeaders)
	cFree(outBody)
	cFree(outHeaders)
	cFree(outErr)
	if headerText != "" {
		if err := json.Unmarshal([]byte(headerText), &resp.Headers); err != nil {
			return nil, fmt.Errorf("rift: response headers %q: %w", headerText, err)
		}
	}
	return resp, nil
}

// Call sends a request to the imposter on port through the in-process gateway.
func (c *EmbeddedClient) Call(port int, req Request) (*Response, error) {
	req.Path = fmt.Sprintf("/__rift/%d%s", port, req.Path)
	return c.Do(req)
}

// ServeAdmin binds the real admin API over HTTP (rift_serve_admin), once per engine, and
// returns its URL, e.g. for a Connect client or for SSE.
func (c *EmbeddedClient) ServeAdmin(host string, port int) (string, error) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	if c.closed {
		return "", ErrClosed
	}
	if host == "" {
		host = "127.0.0.1"
	}
	opts, _ := json.Marshal(map[string]any{"host": host, "port": port})
	var out, cerr unsafe.Pointer
	if rc := cServeAdmin(c.engine, cstr(string(opts)), &out, &cerr); rc != 0 {
		return "", takeError(rc, cerr)
	}
	text := goString(out)
	cFree(out)
	var answer struct {
		AdminURL string `json:"adminUrl"`
	}
	if err := json.Unmarshal([]byte(text), &answer); err != nil {
		return "", fmt.Errorf("rift: rift_serve_admin answer %q: %w", text, err)
	}
	return answer.AdminURL, nil
}

// Close stops every listener and frees the engine; a second Close does nothing.
func (c *EmbeddedClient) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return nil
	}
	c.closed = true
	if rc := cEngineClose(c.engine); rc != 0 {
		return takeError(rc, nil)
	}
	c.engine = 0
	return nil
}
