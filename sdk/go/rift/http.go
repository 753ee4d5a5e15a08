package rift

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// HTTPClient talks to a Rift server over HTTP/1.1: a server it connected to, or one it spawned.
type HTTPClient struct {
	common
	base      *url.URL
	http      *http.Client
	transport string

	closeOnce sync.Once
	closeErr  error
	proc      *exec.Cmd
	procDone  chan struct{}
	tmpDir    string
	mu        sync.RWMutex
	closed    bool
}

func newHTTPTransport() *http.Client {
	return &http.Client{
		Transport: &http.Transport{
			Proxy:               nil, // 127.0.0.1: never through HTTP_PROXY
			DisableCompression:  true,
			MaxIdleConnsPerHost: 16,
			IdleConnTimeout:     30 * time.Second,
			DialContext:         (&net.Dialer{Timeout: 5 * time.Second}).DialContext,
		},
		Timeout: 60 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse
		},
	}
}

// Connect returns a client of an existing Rift (or Mountebank) server at baseURL, e.g.
// "http://127.0.0.1:2525". Close does not stop that server.
func Connect(baseURL string) (*HTTPClient, error) {
	u, err := url.Parse(strings.TrimRight(baseURL, "/"))
	if err != nil {
		return nil, fmt.Errorf("rift: connect %q: %w", baseURL, err)
	}
	if u.Scheme != "http" && u.Scheme != "https" || u.Host == "" {
		return nil, fmt.Errorf("rift: connect %q: want http://host:port", baseURL)
	}
	c := &HTTPClient{base: u, http: newHTTPTransport(), transport: "connect"}
	c.common = common{do: c.Do}
	return c, nil
}

func (c *HTTPClient) Transport() string { return c.transport }

// BaseURL is the admin API's URL.
func (c *HTTPClient) BaseURL() string { return c.base.String() }

func (c *HTTPClient) send(scheme, host string, req Request) (*Response, error) {
	c.mu.RLock()
	closed := c.closed
	c.mu.RUnlock()
	if closed {
		return nil, ErrClosed
	}
	method := req.Method
	if method == "" {
		method = http.MethodGet
	}
	path, query, _ := strings.Cut(req.Path, "?")
	if path == "" {
		path = "/"
	}
	// Opaque and RawQuery carry the target exactly as given: nothing is re-escaped.
	u := &url.URL{Scheme: scheme, Host: host, Opaque: path, RawQuery: query,
		ForceQuery: strings.Contains(req.Path, "?") && query == ""}
	var body io.Reader
	if len(req.Body) > 0 {
		body = bytes.NewReader(req.Body)
	}
	hr, err := http.NewRequest(method, u.String(), body)
	if err != nil {
		return nil, err
	}
	hr.URL = u
	for _, h := range req.Headers {
		if strings.EqualFold(h[0], "Host") {
			hr.Host = h[1]
			continue
		}
		hr.Header.Add(h[0], h[1])
	}
	if _, ok := hr.Header["User-Agent"]; !ok {
		hr.Header["User-Agent"] = []string{""} // Go then sends no User-Agent of its own
	}
	resp, err := c.http.Do(hr)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	out := &Response{Status: resp.StatusCode, Body: data}
	for name, values := range resp.Header {
		for _, v := range values {
			out.Headers = append(out.Headers, [2]string{name, v})
		}
	}
	return out, nil
}

// Do sends one admin API call over HTTP.
func (c *HTTPClient) Do(req Request) (*Response, error) {
	return c.send(c.base.Scheme, c.base.Host, req)
}

// Call sends a request to the imposter on port of the server's host over HTTP/1.1.
func (c *HTTPClient) Call(port int, req Request) (*Response, error) {
	return c.send("http", net.JoinHostPort(c.base.Hostname(), strconv.Itoa(port)), req)
}

// Close stops a spawned server (SIGTERM, then wait for it to exit); for Connect it only drops
// idle connections. Idempotent.
func (c *HTTPClient) Close() error {
	c.closeOnce.Do(func() {
		c.mu.Lock()
		c.closed = true
		c.mu.Unlock()
		c.http.CloseIdleConnections()
		if c.proc != nil {
			c.closeErr = stopProcess(c.proc, c.procDone)
		}
		if c.tmpDir != "" {
			os.RemoveAll(c.tmpDir)
		}
	})
	return c.closeErr
}

func stopProcess(cmd *exec.Cmd, done chan struct{}) error {
	_ = cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-done:
		return nil
	case <-time.After(15 * time.Second):
		_ = cmd.Process.Kill()
		<-done
		return fmt.Errorf("rift: pid %d ignored SIGTERM for 15s and was killed", cmd.Process.Pid)
	}
}

// SpawnOptions configure Spawn.
type SpawnOptions struct {
	Bin            string   // the rift binary; default $RIFT_BIN, then "rift" on PATH
	Port           int      // admin port; 0 = a free port chosen by the SDK
	AllowInjection bool     // --allowInjection
	Engine         string   // --engine interp|jit|auto; "" = the binary's default
	Args           []string // more arguments for `rift start`
	StartTimeout   time.Duration
	Stdout, Stderr io.Writer // the server's console; default discarded
}

// BinaryEnv names the rift binary for Spawn; it wins over PATH.
const BinaryEnv = "RIFT_BIN"

// LocateBinary returns $RIFT_BIN, else rift on PATH.
func LocateBinary() (string, error) {
	if p := os.Getenv(BinaryEnv); p != "" {
		return p, nil
	}
	p, err := exec.LookPath("rift")
	if err != nil {
		return "", fmt.Errorf("rift: no rift binary: set %s or put rift on PATH", BinaryEnv)
	}
	return p, nil
}

// FreePort asks the kernel for a free TCP port on 127.0.0.1.
func FreePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// Spawn starts `rift start` on 127.0.0.1 and a free port, and returns once GET / answers.
func Spawn(opts SpawnOptions) (*HTTPClient, error) {
	bin := opts.Bin
	if bin == "" {
		var err error
		if bin, err = LocateBinary(); err != nil {
			return nil, err
		}
	}
	timeout := opts.StartTimeout
	if timeout == 0 {
		timeout = 30 * time.Second
	}
	var lastErr error
	for attempt := 0; attempt < 3; attempt++ { // a port taken between FreePort and bind: retry
		c, err := spawnOnce(bin, opts, timeout)
		if err == nil {
			return c, nil
		}
		lastErr = err
		if opts.Port != 0 || !errors.Is(err, errExitedEarly) {
			break
		}
	}
	return nil, lastErr
}

var errExitedEarly = errors.New("rift exited before answering")

func spawnOnce(bin string, opts SpawnOptions, timeout time.Duration) (*HTTPClient, error) {
	port := opts.Port
	if port == 0 {
		var err error
		if port, err = FreePort(); err != nil {
			return nil, err
		}
	}
	tmp, err := os.MkdirTemp("", "rift-spawn-")
	if err != nil {
		return nil, err
	}
	args := []string{"start", "--port", strconv.Itoa(port), "--host", "127.0.0.1", "--nologfile",
		"--pidfile", filepath.Join(tmp, "rift.pid")}
	if opts.AllowInjection {
		args = append(args, "--allowInjection")
	}
	if opts.Engine != "" {
		args = append(args, "--engine", opts.Engine)
	}
	args = append(args, opts.Args...)
	cmd := exec.Command(bin, args...)
	cmd.Dir = tmp
	var console bytes.Buffer
	cmd.Stdout, cmd.Stderr = opts.Stdout, opts.Stderr
	if cmd.Stderr == nil {
		cmd.Stderr = &limitedBuffer{buf: &console, max: 16 << 10}
	}
	if err := cmd.Start(); err != nil {
		os.RemoveAll(tmp)
		return nil, fmt.Errorf("rift: starting %s: %w", bin, err)
	}
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	base := fmt.Sprintf("http://127.0.0.1:%d", port)
	c, _ := Connect(base)
	c.transport, c.proc, c.procDone, c.tmpDir = "spawn", cmd, done, tmp
	deadline := time.Now().Add(timeout)
	probe := &http.Client{Timeout: time.Second, Transport: &http.Transport{Proxy: nil}}
	for {
		select {
		case <-done:
			os.RemoveAll(tmp)
			return nil, fmt.Errorf("rift: %w (%s %s): %s", errExitedEarly, bin, strings.Join(args, " "), console.String())
		default:
		}
		resp, err := probe.Get(base + "/")
		if err == nil {
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return c, nil
			}
		}
		if time.Now().After(deadline) {
			c.Close()
			return nil, fmt.Errorf("rift: %s did not answer GET / within %s", base, timeout)
		}
		// Poll the readiness check; the process's exit is noticed above.
		select {
		case <-done:
		case <-time.After(20 * time.Millisecond):
		}
	}
}

type limitedBuffer struct {
	mu  sync.Mutex
	buf *bytes.Buffer
	max int
}

func (l *limitedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if room := l.max - l.buf.Len(); room > 0 {
		if len(p) > room {
			l.buf.Write(p[:room])
		} else {
			l.buf.Write(p)
		}
	}
	return len(p), nil
}

// Pid is the spawned server's process id (0 for Connect).
func (c *HTTPClient) Pid() int {
	if c.proc == nil {
		return 0
	}
	return c.proc.Process.Pid
}
