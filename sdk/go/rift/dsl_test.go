package rift_test

import (
	"encoding/json"
	"testing"

	"github.com/rift-mock/rift/sdk/go/rift"
)

func TestImposterJSONShape(t *testing.T) {
	b := rift.NewImposter("users").Port(4545).Record().
		Stub(rift.OnGet("/users/1").WithQuery("v", "2").WillReturn(
			rift.OKJSON(`{"id":1}`).Wait(5),
			rift.Is(500).Repeat(2),
			rift.Proxy("http://localhost:1", rift.ProxyOnce, map[string]any{"matches": map[string]any{"path": true}}),
		)).
		Stub(rift.OnAnyRequest().Where(
			rift.Or(rift.StartsWith(rift.Fields{Path: "/a"}), rift.Not(rift.HeaderExists("X", true))),
			rift.Matches(rift.Fields{Body: "^x"}).CaseSensitive().Except("y"),
		).WillReturn(rift.OK().Copy(rift.CopySpec{From: "path", Into: "${p}", Using: rift.Regex(`\d+`)}).Decorate("f")))
	data, err := b.JSON()
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(data, &got); err != nil {
		t.Fatal(err)
	}
	want := `{"name":"users","port":4545,"protocol":"http","recordRequests":true,"stubs":[` +
		`{"predicates":[{"equals":{"method":"GET","path":"/users/1","query":{"v":"2"}}}],"responses":[` +
		`{"_behaviors":{"wait":5},"is":{"body":"{\"id\":1}","headers":{"Content-Type":"application/json"},"statusCode":200}},` +
		`{"_behaviors":{"repeat":2},"is":{"statusCode":500}},` +
		`{"proxy":{"mode":"proxyOnce","predicateGenerators":[{"matches":{"path":true}}],"to":"http://localhost:1"}}]},` +
		`{"predicates":[{"or":[{"startsWith":{"path":"/a"}},{"not":{"exists":{"headers":{"X":true}}}}]},` +
		`{"caseSensitive":true,"except":"y","matches":{"body":"^x"}}],"responses":[` +
		`{"_behaviors":{"copy":[{"from":"path","into":"${p}","using":{"method":"regex","selector":"\\d+"}}],"decorate":"f"},"is":{"statusCode":200}}]}]}`
	var wantMap map[string]any
	if err := json.Unmarshal([]byte(want), &wantMap); err != nil {
		t.Fatal(err)
	}
	gotText, _ := json.Marshal(got)
	wantText, _ := json.Marshal(wantMap)
	if string(gotText) != string(wantText) {
		t.Fatalf("imposter JSON\n got %s\nwant %s", gotText, wantText)
	}
}

func rec(method, path string, query map[string]any, headers map[string]any, body string) rift.RecordedRequest {
	b, _ := json.Marshal(body)
	return rift.RecordedRequest{Method: method, Path: path, Query: query, Headers: headers, Body: b}
}

func TestStubMatchesRecordedRequests(t *testing.T) {
	r := rec("GET", "/Users/1", map[string]any{"v": "2", "tag": []any{"a", "b"}},
		map[string]any{"X-Token": "Bearer abc", "Content-Type": "application/json"}, `{"order":{"status":"new"},"n":1}`)
	cases := []struct {
		name string
		stub *rift.StubBuilder
		want bool
	}{
		{"method and path, case-insensitive", rift.OnGet("/users/1"), true},
		{"other path", rift.OnGet("/users/2"), false},
		{"other method", rift.OnPost("/users/1"), false},
		{"case-sensitive path", rift.OnAnyRequest().Where(rift.Equals(rift.Fields{Path: "/users/1"}).CaseSensitive()), false},
		{"query subset", rift.OnGet("/users/1").WithQuery("v", "2"), true},
		{"query mismatch", rift.OnGet("/users/1").WithQuery("v", "3"), false},
		{"repeated query key", rift.OnGet("/users/1").WithQuery("tag", "b"), true},
		{"header, name case-insensitive", rift.OnGet("/users/1").WithHeader("x-token", "bearer abc"), true},
		{"json body subset", rift.OnGet("/users/1").WithJSONBody(map[string]any{"order": map[string]any{"status": "new"}}), true},
		{"json body mismatch", rift.OnGet("/users/1").WithJSONBody(map[string]any{"order": map[string]any{"status": "old"}}), false},
		{"deepEquals query has extra keys", rift.OnAnyRequest().Where(rift.DeepEquals(rift.Fields{Query: map[string]string{"v": "2"}})), false},
		{"path regex", rift.OnGet("").PathMatching(`^/users/\d+$`), true},
		{"contains", rift.OnAnyRequest().Where(rift.Contains(rift.Fields{Body: "status"})), true},
		{"endsWith", rift.OnAnyRequest().Where(rift.EndsWith(rift.Fields{Path: "/1"})), true},
		{"exists with except", rift.OnAnyRequest().Where(rift.Equals(rift.Fields{Headers: map[string]string{"X-Token": "abc"}}).Except("^Bearer ")), true},
		{"exists", rift.OnAnyRequest().Where(rift.HeaderExists("X-Token", true)), true},
		{"not exists", rift.OnAnyRequest().Where(rift.HeaderExists("X-Missing", true)), false},
		{"and/or/not", rift.OnAnyRequest().Where(rift.And(rift.Or(rift.Equals(rift.Fields{Method: "POST"}), rift.Equals(rift.Fields{Method: "GET"})),
			rift.Not(rift.StartsWith(rift.Fields{Path: "/admin"})))), true},
	}
	for _, c := range cases {
		got, err := c.stub.Matches(r)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
		} else if got != c.want {
			t.Errorf("%s: matched %v, want %v (%s)", c.name, got, c.want, c.stub.Describe())
		}
	}
	if _, err := rift.OnAnyRequest().Where(rift.InjectPredicate("x")).Matches(r); err == nil {
		t.Error("an inject predicate cannot be verified client-side")
	}
}

func TestTimes(t *testing.T) {
	if rift.Times(2).String() != "exactly 2" || rift.AtLeast(1).String() != "at least 1" || rift.AtMost(3).String() != "at most 3" {
		t.Fatal("Times strings")
	}
}
