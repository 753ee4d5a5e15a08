// Command bench times one stubbed call (GET answering a small JSON body) through the embedded
// gateway and over loopback HTTP to a spawned rift, N iterations after a warm-up.
//
//	RIFT_LIB=... RIFT_BIN=... go run ./bench -n 20000
package main

import (
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/rift-mock/rift/sdk/go/rift"
)

func imposter() *rift.ImposterBuilder {
	return rift.NewImposter("bench").
		Stub(rift.OnGet("/users/1").WillReturn(rift.OKJSON(`{"id":1,"name":"Ada"}`)))
}

func measure(c rift.Client, warmup, n int) (time.Duration, error) {
	port, err := c.Create(imposter())
	if err != nil {
		return 0, err
	}
	defer c.Delete(port)
	req := rift.Request{Method: "GET", Path: "/users/1"}
	call := func() error {
		r, err := c.Call(port, req)
		if err != nil {
			return err
		}
		if r.Status != 200 || len(r.Body) == 0 {
			return fmt.Errorf("unexpected answer %d %q", r.Status, r.Body)
		}
		return nil
	}
	for i := 0; i < warmup; i++ {
		if err := call(); err != nil {
			return 0, err
		}
	}
	start := time.Now()
	for i := 0; i < n; i++ {
		if err := call(); err != nil {
			return 0, err
		}
	}
	return time.Since(start) / time.Duration(n), nil
}

func main() {
	n := flag.Int("n", 20000, "timed iterations per transport")
	warmup := flag.Int("warmup", 2000, "untimed iterations first")
	flag.Parse()
	fail := func(err error) { fmt.Fprintln(os.Stderr, "bench:", err); os.Exit(1) }

	emb, err := rift.Embedded(rift.EmbeddedOptions{Tier: "interpreter"})
	if err != nil {
		fail(err)
	}
	e, err := measure(emb, *warmup, *n)
	emb.Close()
	if err != nil {
		fail(err)
	}
	sp, err := rift.Spawn(rift.SpawnOptions{Engine: "interp"})
	if err != nil {
		fail(err)
	}
	s, err := measure(sp, *warmup, *n)
	sp.Close()
	if err != nil {
		fail(err)
	}
	us := func(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1000 }
	fmt.Printf("embedded gateway (rift_request):  %8.1f µs/call  (n=%d after %d warm-up)\n", us(e), *n, *warmup)
	fmt.Printf("spawned rift over loopback HTTP:  %8.1f µs/call  (n=%d after %d warm-up, keep-alive)\n", us(s), *n, *warmup)
	fmt.Printf("ratio http/embedded: %.2fx\n", float64(s)/float64(e))
}
