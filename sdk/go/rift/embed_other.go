//go:build !(linux && amd64)

package rift

// No native library is embedded for this platform: RIFT_LIB or the system loader is used.
func embeddedLibrary() ([]byte, string) { return nil, "" }
