package rift

import "embed"

// The native library for linux/amd64, when the module carries one: ci.sh copies (and strips)
// $RIFT_LIB to native/linux_amd64/librift.so.1 before building. The directory always holds its
// README so the pattern matches without the library.
//
//go:embed all:native/linux_amd64
var nativeFS embed.FS

func embeddedLibrary() ([]byte, string) {
	data, err := nativeFS.ReadFile("native/linux_amd64/librift.so.1")
	if err != nil {
		return nil, ""
	}
	return data, "linux_amd64"
}
