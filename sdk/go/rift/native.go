package rift

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/ebitengine/purego"
)

// LibraryEnv is the environment variable naming librift's path; it wins over every other place.
const LibraryEnv = "RIFT_LIB"

// SystemLibraryName is what the dynamic loader is asked for when neither RIFT_LIB nor an
// embedded library is there (LD_LIBRARY_PATH, the ldconfig cache, /usr/lib, ...).
const SystemLibraryName = "librift.so.1"

var (
	loadMu     sync.Mutex
	loaded     bool
	loadedPath string
)

// LibraryPath reports which file was loaded ("" before the first embedded engine).
func LibraryPath() string {
	loadMu.Lock()
	defer loadMu.Unlock()
	return loadedPath
}

// locateLibrary returns the path to dlopen: RIFT_LIB, else the library embedded in this module
// for the platform (written once to a content-addressed temp file), else the loader's name.
func locateLibrary() (string, error) {
	if p := os.Getenv(LibraryEnv); p != "" {
		if _, err := os.Stat(p); err != nil {
			return "", fmt.Errorf("rift: %s=%s: %w", LibraryEnv, p, err)
		}
		return p, nil
	}
	if data, platform := embeddedLibrary(); len(data) > 0 {
		return writeEmbedded(data, platform)
	}
	return SystemLibraryName, nil
}

func writeEmbedded(data []byte, platform string) (string, error) {
	sum := sha256.Sum256(data)
	dir := filepath.Join(os.TempDir(), "rift-go-native")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("rift: writing the embedded library: %w", err)
	}
	path := filepath.Join(dir, "librift-"+platform+"-"+hex.EncodeToString(sum[:8])+".so")
	if old, err := os.ReadFile(path); err == nil && sha256.Sum256(old) == sum {
		return path, nil
	}
	f, err := os.CreateTemp(dir, "librift-*.tmp")
	if err != nil {
		return "", fmt.Errorf("rift: writing the embedded library: %w", err)
	}
	_, werr := f.Write(data)
	cerr := f.Close()
	if err := errors.Join(werr, cerr); err != nil {
		os.Remove(f.Name())
		return "", fmt.Errorf("rift: writing the embedded library: %w", err)
	}
	if err := os.Chmod(f.Name(), 0o755); err != nil {
		os.Remove(f.Name())
		return "", err
	}
	if err := os.Rename(f.Name(), path); err != nil { // atomic: concurrent test binaries agree
		os.Remove(f.Name())
		return "", fmt.Errorf("rift: writing the embedded library: %w", err)
	}
	return path, nil
}

// load opens librift once per process (it is never closed: the library is -z nodelete) and
// binds every function of the binding table, then checks rift_abi_version.
func load() error {
	loadMu.Lock()
	defer loadMu.Unlock()
	if loaded {
		return nil
	}
	path, err := locateLibrary()
	if err != nil {
		return err
	}
	var handle uintptr
	// The library file may be relinked in place while tests run; a failed load is retried
	// briefly before giving up.
	for attempt := 0; ; attempt++ {
		handle, err = purego.Dlopen(path, purego.RTLD_NOW|purego.RTLD_LOCAL)
		if err == nil || attempt == 4 {
			break
		}
		time.Sleep(time.Duration(100*(attempt+1)) * time.Millisecond)
	}
	if err != nil {
		return fmt.Errorf("rift: loading librift from %s: %w (set %s to librift.so.1)", path, err, LibraryEnv)
	}
	for _, b := range bindings {
		sym, err := purego.Dlsym(handle, b.Name)
		if err != nil {
			return fmt.Errorf("rift: %s lacks %s: %w", path, b.Name, err)
		}
		purego.RegisterFunc(b.fn, sym)
	}
	if v := cAbiVersion(); v != ABIVersion {
		return fmt.Errorf("rift: %s has ABI version %d, this SDK needs %d", path, v, ABIVersion)
	}
	loaded = true
	loadedPath = path
	return nil
}

// BuildInfo loads librift if needed and returns rift_build_info()'s JSON.
func BuildInfo() (string, error) {
	if err := load(); err != nil {
		return "", err
	}
	return goString(cBuildInfo()), nil
}

// StatusName is rift_status_name: "RIFT_OK", "RIFT_ERR_ARGUMENT", ...
func StatusName(status int32) string {
	if err := load(); err != nil {
		return "RIFT_ERR_UNKNOWN"
	}
	return goString(cStatusName(status))
}
