package rift

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"unsafe"
)

// ABIVersion is the librift ABI major version this SDK binds (RIFT_ABI_VERSION).
const ABIVersion = 1

// Binding is one row of the SDK's FFI binding table: a C function of librift with its return
// and argument types (as spelled in embed/abi.json) and the Go function variable purego fills.
type Binding struct {
	Name    string
	Returns string
	Args    [][2]string // {name, C type}
	fn      any         // pointer to a Go func variable
}

// The Go side of each C function. Filled by purego when the library loads.
var (
	cAbiVersion  func() uint32
	cBuildInfo   func() unsafe.Pointer
	cEngineOpen  func(options *byte, outEngine *uintptr, outError *unsafe.Pointer) int32
	cEngineClose func(engine uintptr) int32
	cRequest     func(engine uintptr, method, target, headersJSON, body *byte, bodyLen uintptr,
		outStatus *int32, outBody *unsafe.Pointer, outBodyLen *uintptr, outHeadersJSON *unsafe.Pointer,
		outError *unsafe.Pointer) int32
	cServeAdmin func(engine uintptr, options *byte, outJSON *unsafe.Pointer, outError *unsafe.Pointer) int32
	cFree       func(pointer unsafe.Pointer)
	cStatusName func(status int32) unsafe.Pointer
)

// bindings is the binding table, written once: library loading registers exactly these
// functions, and TestABI compares it with embed/abi.json.
var bindings = []Binding{
	{"rift_abi_version", "uint32_t", nil, &cAbiVersion},
	{"rift_build_info", "const char *", nil, &cBuildInfo},
	{"rift_engine_open", "int32_t", [][2]string{
		{"options_json", "const char *"}, {"out_engine", "rift_engine **"}, {"out_error", "char **"}}, &cEngineOpen},
	{"rift_engine_close", "int32_t", [][2]string{{"engine", "rift_engine *"}}, &cEngineClose},
	{"rift_request", "int32_t", [][2]string{
		{"engine", "rift_engine *"}, {"method", "const char *"}, {"target", "const char *"},
		{"headers_json", "const char *"}, {"body", "const char *"}, {"body_len", "size_t"},
		{"out_status", "int32_t *"}, {"out_body", "char **"}, {"out_body_len", "size_t *"},
		{"out_headers_json", "char **"}, {"out_error", "char **"}}, &cRequest},
	{"rift_serve_admin", "int32_t", [][2]string{
		{"engine", "rift_engine *"}, {"options_json", "const char *"},
		{"out_json", "char **"}, {"out_error", "char **"}}, &cServeAdmin},
	{"rift_free", "void", [][2]string{{"pointer", "void *"}}, &cFree},
	{"rift_status_name", "const char *", [][2]string{{"status", "int32_t"}}, &cStatusName},
}

// Bindings returns a copy of the SDK's binding table (names, C return and argument types).
func Bindings() []Binding {
	out := make([]Binding, len(bindings))
	copy(out, bindings)
	return out
}

type abiFile struct {
	ABI       int `json:"abi"`
	Functions []struct {
		Name    string      `json:"name"`
		Returns string      `json:"returns"`
		Args    [][2]string `json:"args"`
	} `json:"functions"`
}

func normType(t string) string { return strings.Join(strings.Fields(t), " ") }

// CompareABI checks a binding table against the text of embed/abi.json: the same ABI version,
// the same functions, and for each the same return type and argument types in order. It also
// checks that each Go function variable's signature fits the C types. It returns nil when
// everything matches, else an error listing every difference.
func CompareABI(table []Binding, abiJSON []byte) error {
	var f abiFile
	if err := json.Unmarshal(abiJSON, &f); err != nil {
		return fmt.Errorf("abi.json: %w", err)
	}
	var diffs []string
	if f.ABI != ABIVersion {
		diffs = append(diffs, fmt.Sprintf("abi.json has abi %d, the SDK binds %d", f.ABI, ABIVersion))
	}
	byName := map[string]Binding{}
	for _, b := range table {
		byName[b.Name] = b
	}
	seen := map[string]bool{}
	for _, fn := range f.Functions {
		seen[fn.Name] = true
		b, ok := byName[fn.Name]
		if !ok {
			diffs = append(diffs, fmt.Sprintf("%s: in abi.json, not in the SDK", fn.Name))
			continue
		}
		if normType(fn.Returns) != normType(b.Returns) {
			diffs = append(diffs, fmt.Sprintf("%s: returns %q in abi.json, %q in the SDK", fn.Name, fn.Returns, b.Returns))
		}
		if len(fn.Args) != len(b.Args) {
			diffs = append(diffs, fmt.Sprintf("%s: %d args in abi.json, %d in the SDK", fn.Name, len(fn.Args), len(b.Args)))
			continue
		}
		for i := range fn.Args {
			if normType(fn.Args[i][1]) != normType(b.Args[i][1]) || fn.Args[i][0] != b.Args[i][0] {
				diffs = append(diffs, fmt.Sprintf("%s arg %d: %q %q in abi.json, %q %q in the SDK",
					fn.Name, i, fn.Args[i][1], fn.Args[i][0], b.Args[i][1], b.Args[i][0]))
			}
		}
	}
	for _, b := range table {
		if !seen[b.Name] {
			diffs = append(diffs, fmt.Sprintf("%s: in the SDK, not in abi.json", b.Name))
		}
		if err := checkGoSignature(b); err != nil {
			diffs = append(diffs, err.Error())
		}
	}
	if len(diffs) > 0 {
		return fmt.Errorf("ABI mismatch:\n  %s", strings.Join(diffs, "\n  "))
	}
	return nil
}

// goKind is the Go type a C type is bound to in this SDK (amd64/arm64 LP64).
func goKind(c string) (reflect.Type, bool) {
	c = normType(c)
	switch c {
	case "void":
		return nil, true
	case "uint32_t":
		return reflect.TypeOf(uint32(0)), true
	case "int32_t":
		return reflect.TypeOf(int32(0)), true
	case "size_t", "rift_engine *":
		return reflect.TypeOf(uintptr(0)), true
	case "void *":
		return reflect.TypeOf(unsafe.Pointer(nil)), true
	case "const char *":
		return reflect.TypeOf((*byte)(nil)), true
	case "int32_t *":
		return reflect.TypeOf((*int32)(nil)), true
	case "size_t *", "rift_engine **":
		return reflect.TypeOf((*uintptr)(nil)), true
	case "char **":
		return reflect.TypeOf((*unsafe.Pointer)(nil)), true
	}
	return nil, false
}

func checkGoSignature(b Binding) error {
	if b.fn == nil {
		return nil
	}
	ft := reflect.TypeOf(b.fn).Elem()
	if ft.NumIn() != len(b.Args) {
		return fmt.Errorf("%s: Go func has %d args, table %d", b.Name, ft.NumIn(), len(b.Args))
	}
	for i, a := range b.Args {
		want, ok := goKind(a[1])
		if !ok {
			return fmt.Errorf("%s arg %d: no Go mapping for C type %q", b.Name, i, a[1])
		}
		if ft.In(i) != want {
			return fmt.Errorf("%s arg %d: Go %s does not bind C %q", b.Name, i, ft.In(i), a[1])
		}
	}
	want, ok := goKind(b.Returns)
	if !ok && b.Returns != "const char *" {
		return fmt.Errorf("%s: no Go mapping for C return %q", b.Name, b.Returns)
	}
	switch {
	case b.Returns == "void":
		if ft.NumOut() != 0 {
			return fmt.Errorf("%s: Go func returns a value for C void", b.Name)
		}
	case b.Returns == "const char *":
		if ft.NumOut() != 1 || ft.Out(0) != reflect.TypeOf(unsafe.Pointer(nil)) {
			return fmt.Errorf("%s: Go func must return unsafe.Pointer for const char *", b.Name)
		}
	default:
		if ft.NumOut() != 1 || ft.Out(0) != want {
			return fmt.Errorf("%s: Go return does not bind C %q", b.Name, b.Returns)
		}
	}
	return nil
}

// goString copies a NUL-terminated C string.
func goString(p unsafe.Pointer) string {
	if p == nil {
		return ""
	}
	var n int
	for *(*byte)(unsafe.Add(p, n)) != 0 {
		n++
	}
	return string(unsafe.Slice((*byte)(p), n))
}

// goBytes copies n bytes from C memory.
func goBytes(p unsafe.Pointer, n uintptr) []byte {
	if p == nil || n == 0 {
		return []byte{}
	}
	out := make([]byte, n)
	copy(out, unsafe.Slice((*byte)(p), n))
	return out
}

// cstr returns a NUL-terminated copy of s for a const char * argument.
func cstr(s string) *byte {
	b := make([]byte, len(s)+1)
	copy(b, s)
	return &b[0]
}
