// Package testenv finds what the SDK's tests need (module root, repository paths, the rift
// binary) and starts a plain rift server for connect tests.
package testenv

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/rift-mock/rift/sdk/go/rift"
)

// ModuleRoot is sdk/go (the folder of go.mod).
func ModuleRoot() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Clean(filepath.Join(filepath.Dir(file), "..", ".."))
}

// FromModule resolves a path relative to the module root.
func FromModule(rel string) string { return filepath.Join(ModuleRoot(), rel) }

// Env returns the environment variable, else the default resolved from the module root.
func Env(name, defaultRel string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return FromModule(defaultRel)
}

// RiftBin is $RIFT_BIN, rift on PATH, or the repository's build output.
func RiftBin(t testing.TB) string {
	if p, err := rift.LocateBinary(); err == nil {
		return p
	}
	for _, rel := range []string{"../../build/bin/rift", "../../build-embed/bin/rift"} {
		if p := FromModule(rel); fileExists(p) {
			return p
		}
	}
	t.Fatalf("no rift binary: set RIFT_BIN")
	return ""
}

func fileExists(p string) bool { _, err := os.Stat(p); return err == nil }

// StartServer starts `rift start` as a plain subprocess on a free port (the connect lane's
// server, not the SDK's Spawn), waits until GET / answers, and stops it at cleanup.
func StartServer(t testing.TB, extraArgs ...string) string {
	t.Helper()
	bin := RiftBin(t)
	port, err := rift.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	args := append([]string{"start", "--port", strconv.Itoa(port), "--host", "127.0.0.1",
		"--nologfile", "--pidfile", filepath.Join(dir, "rift.pid")}, extraArgs...)
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting %s: %v", bin, err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-done:
		case <-time.After(15 * time.Second):
			_ = cmd.Process.Kill()
			<-done
			t.Errorf("rift pid %d ignored SIGTERM", cmd.Process.Pid)
		}
	})
	url := fmt.Sprintf("http://127.0.0.1:%d", port)
	if err := WaitReady(url, done, 30*time.Second); err != nil {
		t.Fatal(err)
	}
	return url
}

// WaitReady polls GET url/ until it answers 200, the process ends, or the timeout passes.
func WaitReady(url string, exited <-chan error, timeout time.Duration) error {
	client := &http.Client{Timeout: time.Second, Transport: &http.Transport{Proxy: nil}}
	deadline := time.Now().Add(timeout)
	for {
		resp, err := client.Get(url + "/")
		if err == nil {
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode == 200 {
				return nil
			}
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%s did not answer within %s: %v", url, timeout, err)
		}
		select {
		case err := <-exited:
			return errors.Join(fmt.Errorf("rift exited before answering"), err)
		case <-time.After(20 * time.Millisecond):
		}
	}
}
