package rift_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rift-mock/rift/sdk/go/internal/testenv"
	"github.com/rift-mock/rift/sdk/go/rift"
)

func abiJSON(t *testing.T) []byte {
	path := testenv.Env("RIFT_ABI_JSON", "../../embed/abi.json")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("RIFT_ABI_JSON: %v", err)
	}
	return data
}

func TestABIMatchesAbiJSON(t *testing.T) {
	if err := rift.CompareABI(rift.Bindings(), abiJSON(t)); err != nil {
		t.Fatal(err)
	}
}

// A copy of abi.json with one argument type changed must not compare equal.
func TestABIComparisonCatchesDrift(t *testing.T) {
	orig := string(abiJSON(t))
	const from = `["body_len", "size_t"]`
	if !strings.Contains(orig, from) {
		t.Fatalf("abi.json no longer spells %s; update this test", from)
	}
	altered := strings.Replace(orig, from, `["body_len", "int32_t"]`, 1)
	path := filepath.Join(t.TempDir(), "abi.json")
	if err := os.WriteFile(path, []byte(altered), 0o644); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	err := rift.CompareABI(rift.Bindings(), data)
	if err == nil || !strings.Contains(err.Error(), "rift_request arg 5") {
		t.Fatalf("an altered argument type should be reported, got %v", err)
	}
	// A dropped function is reported too.
	dropped := strings.Replace(orig, `"rift_free"`, `"rift_free_renamed"`, 1)
	if err := rift.CompareABI(rift.Bindings(), []byte(dropped)); err == nil {
		t.Fatal("a renamed function should be reported")
	}
}

func TestLoadedLibraryABIVersion(t *testing.T) {
	info, err := rift.BuildInfo()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(info, `"abi":1`) {
		t.Fatalf("build info %s", info)
	}
	if got := rift.StatusName(-4); got != "RIFT_ERR_UNSUPPORTED" {
		t.Fatalf("status name %q", got)
	}
}

// Where librift came from: RIFT_LIB when set; the module's embedded copy when ci.sh asks
// (RIFT_EXPECT_EMBEDDED=1, with RIFT_LIB unset).
func TestLibraryLocation(t *testing.T) {
	if _, err := rift.BuildInfo(); err != nil {
		t.Fatal(err)
	}
	got := rift.LibraryPath()
	if lib := os.Getenv("RIFT_LIB"); lib != "" {
		if got != lib {
			t.Fatalf("loaded %s, RIFT_LIB is %s", got, lib)
		}
		return
	}
	if os.Getenv("RIFT_EXPECT_EMBEDDED") == "1" {
		if !strings.Contains(got, filepath.Join(os.TempDir(), "rift-go-native")) {
			t.Fatalf("loaded %s, want the module's embedded copy", got)
		}
	}
}
