package rift

import (
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
)

// ---------------------------------------------------------------------------------------------
// Imposters

// ImposterBuilder builds Mountebank imposter JSON: NewImposter("users").Port(4545).Record().
// Stub(OnGet("/users/1").WillReturn(OKJSON(`{"id":1}`))).
type ImposterBuilder struct {
	name            string
	port            int
	protocol        string
	record          bool
	stubs           []*StubBuilder
	defaultResponse *ResponseBuilder
	extra           map[string]any
}

// NewImposter starts an http imposter with a name; the port is chosen by the engine unless set.
func NewImposter(name string) *ImposterBuilder {
	return &ImposterBuilder{name: name, protocol: "http"}
}

// Port sets the imposter's port.
func (b *ImposterBuilder) Port(port int) *ImposterBuilder { b.port = port; return b }

// Protocol sets "http" (the default) or "https" (a default self-signed certificate unless
// Set("key", ...) and Set("cert", ...) give one).
func (b *ImposterBuilder) Protocol(protocol string) *ImposterBuilder { b.protocol = protocol; return b }

// HTTPS is Protocol("https").
func (b *ImposterBuilder) HTTPS() *ImposterBuilder { return b.Protocol("https") }

// Record turns on recordRequests, which Verify needs.
func (b *ImposterBuilder) Record() *ImposterBuilder { b.record = true; return b }

// Stub appends stubs, matched in order.
func (b *ImposterBuilder) Stub(stubs ...*StubBuilder) *ImposterBuilder {
	b.stubs = append(b.stubs, stubs...)
	return b
}

// DefaultResponse sets the answer when no stub matches (Mountebank's defaultResponse, an `is`).
func (b *ImposterBuilder) DefaultResponse(r *ResponseBuilder) *ImposterBuilder {
	b.defaultResponse = r
	return b
}

// Set sets any other top-level field of the imposter JSON (key, cert, mutualAuth, ...).
func (b *ImposterBuilder) Set(key string, value any) *ImposterBuilder {
	if b.extra == nil {
		b.extra = map[string]any{}
	}
	b.extra[key] = value
	return b
}

// GetPort is the port set on the builder (0 when the engine chooses).
func (b *ImposterBuilder) GetPort() int { return b.port }

// Map is the imposter as a JSON-ready map.
func (b *ImposterBuilder) Map() map[string]any {
	m := map[string]any{"protocol": b.protocol}
	for k, v := range b.extra {
		m[k] = v
	}
	if b.name != "" {
		m["name"] = b.name
	}
	if b.port != 0 {
		m["port"] = b.port
	}
	if b.record {
		m["recordRequests"] = true
	}
	if b.defaultResponse != nil {
		if is, ok := b.defaultResponse.m["is"]; ok {
			m["defaultResponse"] = is
		}
	}
	stubs := make([]any, 0, len(b.stubs))
	for _, s := range b.stubs {
		stubs = append(stubs, s.Map())
	}
	m["stubs"] = stubs
	return m
}

// JSON is the imposter's Mountebank JSON.
func (b *ImposterBuilder) JSON() ([]byte, error) { return json.Marshal(b.Map()) }

// ---------------------------------------------------------------------------------------------
// Predicates

// Fields are the request fields a predicate looks at; empty fields are left out.
type Fields struct {
	Method  string
	Path    string
	Query   map[string]string
	Headers map[string]string
	Body    any // a string, or a JSON value matched against a JSON body
}

func (f Fields) toMap() map[string]any {
	m := map[string]any{}
	if f.Method != "" {
		m["method"] = f.Method
	}
	if f.Path != "" {
		m["path"] = f.Path
	}
	if len(f.Query) > 0 {
		m["query"] = f.Query
	}
	if len(f.Headers) > 0 {
		m["headers"] = f.Headers
	}
	if f.Body != nil {
		m["body"] = f.Body
	}
	return m
}

// Predicate is one Mountebank predicate.
type Predicate struct{ m map[string]any }

func op(name string, value any) *Predicate { return &Predicate{m: map[string]any{name: value}} }

// Equals matches when each given field equals the request's (case-insensitive by default).
func Equals(f Fields) *Predicate { return op("equals", f.toMap()) }

// DeepEquals matches when the given fields equal the request's exactly (no extra query keys...).
func DeepEquals(f Fields) *Predicate { return op("deepEquals", f.toMap()) }

// Contains, StartsWith, EndsWith and Matches (a regular expression) compare each given field.
func Contains(f Fields) *Predicate   { return op("contains", f.toMap()) }
func StartsWith(f Fields) *Predicate { return op("startsWith", f.toMap()) }
func EndsWith(f Fields) *Predicate   { return op("endsWith", f.toMap()) }
func Matches(f Fields) *Predicate    { return op("matches", f.toMap()) }

// Exists takes Mountebank's exists object as is, e.g. {"headers": {"X-Token": true}}.
func Exists(fields map[string]any) *Predicate { return op("exists", fields) }

// HeaderExists, QueryExists and BodyExists are the usual Exists forms.
func HeaderExists(name string, present bool) *Predicate {
	return Exists(map[string]any{"headers": map[string]any{name: present}})
}
func QueryExists(name string, present bool) *Predicate {
	return Exists(map[string]any{"query": map[string]any{name: present}})
}
func BodyExists(present bool) *Predicate { return Exists(map[string]any{"body": present}) }

// Not, Or and And combine predicates.
func Not(p *Predicate) *Predicate { return op("not", p.m) }
func Or(ps ...*Predicate) *Predicate {
	return op("or", predicateList(ps))
}
func And(ps ...*Predicate) *Predicate {
	return op("and", predicateList(ps))
}

// InjectPredicate is a JavaScript predicate (the engine needs allowInjection). Verify cannot
// evaluate it.
func InjectPredicate(fn string) *Predicate { return op("inject", fn) }

// RawPredicate wraps a predicate given as JSON text.
func RawPredicate(jsonText string) (*Predicate, error) {
	var m map[string]any
	if err := json.Unmarshal([]byte(jsonText), &m); err != nil {
		return nil, fmt.Errorf("rift: predicate: %w", err)
	}
	return &Predicate{m: m}, nil
}

// CaseSensitive, Except, JSONPath and XPath set the predicate's parameters.
func (p *Predicate) CaseSensitive() *Predicate      { p.m["caseSensitive"] = true; return p }
func (p *Predicate) Except(regex string) *Predicate { p.m["except"] = regex; return p }
func (p *Predicate) JSONPath(selector string) *Predicate {
	p.m["jsonpath"] = map[string]any{"selector": selector}
	return p
}
func (p *Predicate) XPath(selector string) *Predicate {
	p.m["xpath"] = map[string]any{"selector": selector}
	return p
}

// Map is the predicate's JSON object.
func (p *Predicate) Map() map[string]any { return p.m }

func predicateList(ps []*Predicate) []any {
	out := make([]any, 0, len(ps))
	for _, p := range ps {
		out = append(out, p.m)
	}
	return out
}

// ---------------------------------------------------------------------------------------------
// Stubs

// StubBuilder is a stub: the request it answers (which Verify matches too) and its responses.
type StubBuilder struct {
	method    string
	path      string
	pathRegex bool
	query     map[string]string
	headers   map[string]string
	body      any
	hasBody   bool
	extra     []*Predicate
	responses []*ResponseBuilder
}

// On starts a stub for method and exact path ("" for either leaves it unconstrained).
func On(method, path string) *StubBuilder { return &StubBuilder{method: method, path: path} }

func OnGet(path string) *StubBuilder    { return On(http.MethodGet, path) }
func OnPost(path string) *StubBuilder   { return On(http.MethodPost, path) }
func OnPut(path string) *StubBuilder    { return On(http.MethodPut, path) }
func OnDelete(path string) *StubBuilder { return On(http.MethodDelete, path) }
func OnPatch(path string) *StubBuilder  { return On(http.MethodPatch, path) }
func OnAnyRequest() *StubBuilder        { return &StubBuilder{} }

// PathMatching makes the path a regular expression (a matches predicate) instead of equals.
func (s *StubBuilder) PathMatching(regex string) *StubBuilder {
	s.path, s.pathRegex = regex, true
	return s
}

// WithQuery, WithHeader and WithBody add equals constraints.
func (s *StubBuilder) WithQuery(name, value string) *StubBuilder {
	if s.query == nil {
		s.query = map[string]string{}
	}
	s.query[name] = value
	return s
}
func (s *StubBuilder) WithHeader(name, value string) *StubBuilder {
	if s.headers == nil {
		s.headers = map[string]string{}
	}
	s.headers[name] = value
	return s
}
func (s *StubBuilder) WithBody(body string) *StubBuilder { s.body, s.hasBody = body, true; return s }

// WithJSONBody matches a JSON request body against v (each given key equal).
func (s *StubBuilder) WithJSONBody(v any) *StubBuilder { s.body, s.hasBody = v, true; return s }

// Where adds predicates, all of which must hold.
func (s *StubBuilder) Where(ps ...*Predicate) *StubBuilder {
	s.extra = append(s.extra, ps...)
	return s
}

// WillReturn appends responses, served in turn (cycling).
func (s *StubBuilder) WillReturn(rs ...*ResponseBuilder) *StubBuilder {
	s.responses = append(s.responses, rs...)
	return s
}

// Predicates is the stub's predicate list as the DSL built it.
func (s *StubBuilder) Predicates() []*Predicate {
	var out []*Predicate
	eq := Fields{Method: s.method, Query: s.query, Headers: s.headers}
	if !s.pathRegex {
		eq.Path = s.path
	}
	if s.hasBody {
		eq.Body = s.body
	}
	if m := eq.toMap(); len(m) > 0 {
		out = append(out, &Predicate{m: map[string]any{"equals": m}})
	}
	if s.pathRegex {
		out = append(out, Matches(Fields{Path: s.path}))
	}
	return append(out, s.extra...)
}

// Map is the stub's JSON object.
func (s *StubBuilder) Map() map[string]any {
	m := map[string]any{}
	if ps := s.Predicates(); len(ps) > 0 {
		m["predicates"] = predicateList(ps)
	}
	rs := make([]any, 0, len(s.responses))
	for _, r := range s.responses {
		rs = append(rs, r.Map())
	}
	m["responses"] = rs
	return m
}

// Describe is the stub's predicates as compact JSON, for messages.
func (s *StubBuilder) Describe() string {
	b, _ := json.Marshal(predicateList(s.Predicates()))
	return string(b)
}

// ---------------------------------------------------------------------------------------------
// Responses

// ResponseBuilder is one response: is, proxy, inject or fault, with behaviors.
type ResponseBuilder struct {
	m         map[string]any
	behaviors map[string]any
}

// Is answers with status; add headers and a body with the methods below.
func Is(status int) *ResponseBuilder {
	return &ResponseBuilder{m: map[string]any{"is": map[string]any{"statusCode": status}}}
}

// OK is Is(200).
func OK() *ResponseBuilder { return Is(http.StatusOK) }

// OKText is 200 with a text body.
func OKText(body string) *ResponseBuilder { return OK().Body(body) }

// OKJSON is 200 with Content-Type application/json. A string or []byte is sent as the body
// text exactly; any other value is sent as a JSON value.
func OKJSON(body any) *ResponseBuilder { return JSONResponse(http.StatusOK, body) }

// JSONResponse is status with Content-Type application/json and body as in OKJSON.
func JSONResponse(status int, body any) *ResponseBuilder {
	r := Is(status).Header("Content-Type", "application/json")
	switch b := body.(type) {
	case string:
		return r.Body(b)
	case []byte:
		return r.Body(string(b))
	default:
		r.is()["body"] = body
		return r
	}
}

// NotFound is Is(404).
func NotFound() *ResponseBuilder { return Is(http.StatusNotFound) }

func (r *ResponseBuilder) is() map[string]any {
	is, ok := r.m["is"].(map[string]any)
	if !ok {
		panic("rift: Header/Body apply to an `is` response")
	}
	return is
}

// Header adds a response header (an `is` response).
func (r *ResponseBuilder) Header(name, value string) *ResponseBuilder {
	is := r.is()
	h, _ := is["headers"].(map[string]any)
	if h == nil {
		h = map[string]any{}
		is["headers"] = h
	}
	h[name] = value
	return r
}

// Body sets a text body (an `is` response).
func (r *ResponseBuilder) Body(body string) *ResponseBuilder { r.is()["body"] = body; return r }

// Binary sets a base64 body with _mode binary.
func (r *ResponseBuilder) Binary(base64Body string) *ResponseBuilder {
	is := r.is()
	is["body"], is["_mode"] = base64Body, "binary"
	return r
}

// Proxy modes.
const (
	ProxyOnce        = "proxyOnce"
	ProxyAlways      = "proxyAlways"
	ProxyTransparent = "proxyTransparent"
)

// Proxy forwards to `to` (e.g. "http://localhost:8080") in mode; predicateGenerators are
// Mountebank's objects, e.g. map[string]any{"matches": map[string]any{"path": true}}.
func Proxy(to, mode string, predicateGenerators ...map[string]any) *ResponseBuilder {
	p := map[string]any{"to": to}
	if mode != "" {
		p["mode"] = mode
	}
	if len(predicateGenerators) > 0 {
		p["predicateGenerators"] = predicateGenerators
	}
	return &ResponseBuilder{m: map[string]any{"proxy": p}}
}

// Inject answers with a JavaScript function (the engine needs allowInjection).
func Inject(fn string) *ResponseBuilder { return &ResponseBuilder{m: map[string]any{"inject": fn}} }

// Fault answers with a Mountebank fault: "CONNECTION_RESET_BY_PEER" or "RANDOM_DATA_THEN_CLOSE".
func Fault(name string) *ResponseBuilder { return &ResponseBuilder{m: map[string]any{"fault": name}} }

// RawResponse wraps a response given as JSON text.
func RawResponse(jsonText string) (*ResponseBuilder, error) {
	var m map[string]any
	if err := json.Unmarshal([]byte(jsonText), &m); err != nil {
		return nil, fmt.Errorf("rift: response: %w", err)
	}
	return &ResponseBuilder{m: m}, nil
}

func (r *ResponseBuilder) behavior(key string, v any) *ResponseBuilder {
	if r.behaviors == nil {
		r.behaviors = map[string]any{}
	}
	r.behaviors[key] = v
	return r
}

// Wait delays the response by ms milliseconds.
func (r *ResponseBuilder) Wait(ms int) *ResponseBuilder { return r.behavior("wait", ms) }

// WaitFn delays by what a JavaScript function returns (allowInjection).
func (r *ResponseBuilder) WaitFn(fn string) *ResponseBuilder { return r.behavior("wait", fn) }

// Repeat serves this response n times before moving on.
func (r *ResponseBuilder) Repeat(n int) *ResponseBuilder { return r.behavior("repeat", n) }

// Decorate post-processes the response with JavaScript (allowInjection).
func (r *ResponseBuilder) Decorate(fn string) *ResponseBuilder { return r.behavior("decorate", fn) }

// ShellTransform pipes the response through a command (allowInjection).
func (r *ResponseBuilder) ShellTransform(command string) *ResponseBuilder {
	return r.behavior("shellTransform", command)
}

// CopySpec is one copy behavior: from a request field into a token of the response.
type CopySpec struct {
	From  any    // "path", "body", or {"headers": "User-Agent"}, {"query": "id"}
	Into  string // e.g. "${id}"
	Using Using
}

// Using selects from the field: method "regex", "xpath" or "jsonpath".
type Using struct {
	Method   string `json:"method"`
	Selector string `json:"selector"`
}

// Regex, XPathSel and JSONPathSel build a Using.
func Regex(selector string) Using       { return Using{"regex", selector} }
func XPathSel(selector string) Using    { return Using{"xpath", selector} }
func JSONPathSel(selector string) Using { return Using{"jsonpath", selector} }

// Copy adds copy behaviors.
func (r *ResponseBuilder) Copy(specs ...CopySpec) *ResponseBuilder {
	list, _ := r.behaviors["copy"].([]any)
	for _, c := range specs {
		list = append(list, map[string]any{"from": c.From, "into": c.Into, "using": c.Using})
	}
	return r.behavior("copy", list)
}

// Behavior sets any other behavior (lookup, ...) as a JSON-ready value.
func (r *ResponseBuilder) Behavior(name string, value any) *ResponseBuilder {
	return r.behavior(name, value)
}

// Map is the response's JSON object.
func (r *ResponseBuilder) Map() map[string]any {
	m := make(map[string]any, len(r.m)+1)
	for k, v := range r.m {
		m[k] = v
	}
	if len(r.behaviors) > 0 {
		m["_behaviors"] = r.behaviors
	}
	return m
}

// ---------------------------------------------------------------------------------------------
// Verification counts

// TimesMatcher is how many matching requests Verify expects.
type TimesMatcher struct {
	min, max int // max < 0: unbounded
}

func Times(n int) TimesMatcher   { return TimesMatcher{n, n} }
func Once() TimesMatcher         { return Times(1) }
func Never() TimesMatcher        { return Times(0) }
func AtLeast(n int) TimesMatcher { return TimesMatcher{n, -1} }
func AtMost(n int) TimesMatcher  { return TimesMatcher{0, n} }
func Between(min, max int) TimesMatcher {
	return TimesMatcher{min, max}
}

func (t TimesMatcher) ok(n int) bool { return n >= t.min && (t.max < 0 || n <= t.max) }

func (t TimesMatcher) String() string {
	switch {
	case t.max < 0:
		return fmt.Sprintf("at least %d", t.min)
	case t.min == t.max:
		return fmt.Sprintf("exactly %d", t.min)
	case t.min == 0:
		return fmt.Sprintf("at most %d", t.max)
	}
	return fmt.Sprintf("between %d and %d", t.min, t.max)
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
