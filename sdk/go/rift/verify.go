package rift

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
)

// Matches reports whether a recorded request satisfies every predicate of the stub, evaluated
// as Mountebank does for equals, deepEquals, contains, startsWith, endsWith, matches, exists,
// not, or and and (with caseSensitive and except). jsonpath, xpath and inject predicates are
// refused with an error: Verify cannot evaluate them outside the engine.
func (s *StubBuilder) Matches(r RecordedRequest) (bool, error) {
	req := recordedAsMap(r)
	for _, p := range s.Predicates() {
		ok, err := evalPredicate(p.m, req)
		if err != nil || !ok {
			return false, err
		}
	}
	return true, nil
}

func recordedAsMap(r RecordedRequest) map[string]any {
	m := map[string]any{"method": r.Method, "path": r.Path, "body": r.BodyText(),
		"requestFrom": r.RequestFrom}
	q := map[string]any{}
	for k, v := range r.Query {
		q[k] = v
	}
	h := map[string]any{}
	for k, v := range r.Headers {
		h[k] = v
	}
	m["query"], m["headers"] = q, h
	return m
}

var comparators = map[string]func(actual, expected string) bool{
	"equals":     func(a, e string) bool { return a == e },
	"deepEquals": func(a, e string) bool { return a == e },
	"contains":   strings.Contains,
	"startsWith": strings.HasPrefix,
	"endsWith":   strings.HasSuffix,
}

func evalPredicate(p map[string]any, req map[string]any) (bool, error) {
	for _, k := range []string{"jsonpath", "xpath"} {
		if _, ok := p[k]; ok {
			return false, fmt.Errorf("rift: verify cannot evaluate a %s predicate", k)
		}
	}
	cs, _ := p["caseSensitive"].(bool)
	except, _ := p["except"].(string)
	var exceptRe *regexp.Regexp
	if except != "" {
		flags := "(?i)"
		if cs {
			flags = ""
		}
		re, err := regexp.Compile(flags + except)
		if err != nil {
			return false, fmt.Errorf("rift: except %q: %w", except, err)
		}
		exceptRe = re
	}
	ctx := evalCtx{cs: cs, except: exceptRe}
	for name, v := range p {
		switch name {
		case "caseSensitive", "except":
			continue
		case "not":
			sub, ok := v.(map[string]any)
			if !ok {
				return false, fmt.Errorf("rift: not: want an object")
			}
			r, err := evalPredicate(sub, req)
			return !r && err == nil, err
		case "or", "and":
			list, ok := v.([]any)
			if !ok {
				return false, fmt.Errorf("rift: %s: want a list", name)
			}
			for _, item := range list {
				sub, _ := item.(map[string]any)
				r, err := evalPredicate(sub, req)
				if err != nil {
					return false, err
				}
				if name == "or" && r {
					return true, nil
				}
				if name == "and" && !r {
					return false, nil
				}
			}
			return name == "and", nil
		case "inject":
			return false, fmt.Errorf("rift: verify cannot evaluate an inject predicate")
		case "exists":
			fields, _ := v.(map[string]any)
			return ctx.exists(fields, req), nil
		case "matches":
			fields, _ := v.(map[string]any)
			return ctx.fields(fields, req, false, func(a, e string) (bool, error) {
				flags := "(?i)"
				if cs {
					flags = ""
				}
				re, err := regexp.Compile(flags + e)
				if err != nil {
					return false, err
				}
				return re.MatchString(a), nil
			}, true)
		default:
			cmp, ok := comparators[name]
			if !ok {
				return false, fmt.Errorf("rift: verify: unknown predicate %q", name)
			}
			fields, _ := v.(map[string]any)
			return ctx.fields(fields, req, name == "deepEquals", func(a, e string) (bool, error) {
				return cmp(a, e), nil
			}, false)
		}
	}
	return false, fmt.Errorf("rift: verify: empty predicate")
}

type evalCtx struct {
	cs     bool
	except *regexp.Regexp
}

func (c evalCtx) norm(s string, keepCase bool) string {
	if c.except != nil {
		s = c.except.ReplaceAllString(s, "")
	}
	if !c.cs && !keepCase {
		s = strings.ToLower(s)
	}
	return s
}

func scalarString(v any) (string, bool) {
	switch x := v.(type) {
	case string:
		return x, true
	case nil:
		return "", true
	case bool, float64, json.Number:
		b, _ := json.Marshal(x)
		return string(b), true
	case int:
		return fmt.Sprint(x), true
	}
	return "", false
}

// lookup finds key in obj, case-insensitively unless caseSensitive.
func (c evalCtx) lookup(obj map[string]any, key string) (any, bool) {
	if v, ok := obj[key]; ok {
		return v, true
	}
	if !c.cs {
		for k, v := range obj {
			if strings.EqualFold(k, key) {
				return v, true
			}
		}
	}
	return nil, false
}

// toValue turns typed Go values (map[string]string, ...) into plain JSON values.
func toValue(v any) any {
	switch v.(type) {
	case string, nil, bool, float64, map[string]any, []any:
		return v
	}
	b, err := json.Marshal(v)
	if err != nil {
		return v
	}
	var out any
	if json.Unmarshal(b, &out) != nil {
		return v
	}
	return out
}

// fields compares every expected field with the request's.
func (c evalCtx) fields(expected map[string]any, actual map[string]any, deep bool,
	cmp func(a, e string) (bool, error), regex bool) (bool, error) {
	for k, ev := range expected {
		av, ok := c.lookup(actual, k)
		if !ok {
			av = ""
		}
		r, err := c.value(toValue(ev), av, deep, cmp, regex)
		if err != nil || !r {
			return false, err
		}
	}
	return true, nil
}

func (c evalCtx) value(ev, av any, deep bool, cmp func(a, e string) (bool, error), regex bool) (bool, error) {
	switch e := ev.(type) {
	case map[string]any:
		obj, ok := av.(map[string]any)
		if !ok { // a body: try it as JSON
			s, _ := av.(string)
			var parsed any
			if json.Unmarshal([]byte(s), &parsed) != nil {
				return false, nil
			}
			if obj, ok = parsed.(map[string]any); !ok {
				return false, nil
			}
		}
		if deep && len(obj) != len(e) {
			return false, nil
		}
		return c.fields(e, obj, deep, cmp, regex)
	case []any:
		arr, ok := av.([]any)
		if !ok || (deep && len(arr) != len(e)) {
			return false, nil
		}
		for _, item := range e { // each expected item matches some actual item
			found := false
			for _, a := range arr {
				if r, err := c.value(item, a, deep, cmp, regex); err != nil {
					return false, err
				} else if r {
					found = true
					break
				}
			}
			if !found {
				return false, nil
			}
		}
		return true, nil
	}
	es, _ := scalarString(ev)
	if arr, ok := av.([]any); ok { // a repeated query key or header: any value matches
		for _, a := range arr {
			if r, err := c.value(ev, a, deep, cmp, regex); err != nil || r {
				return r, err
			}
		}
		return false, nil
	}
	as, ok := scalarString(av)
	if !ok {
		b, _ := json.Marshal(av)
		as = string(b)
	}
	return cmp(c.norm(as, false), c.normExpected(es, regex))
}

func (c evalCtx) normExpected(s string, regex bool) string {
	if regex || c.cs {
		return s
	}
	return strings.ToLower(s)
}

func (c evalCtx) exists(expected map[string]any, actual map[string]any) bool {
	for k, ev := range expected {
		av, present := c.lookup(actual, k)
		switch e := ev.(type) {
		case bool:
			s, isString := av.(string)
			has := present && !(isString && s == "")
			if m, isMap := av.(map[string]any); isMap {
				has = len(m) > 0
			}
			if has != e {
				return false
			}
		case map[string]any:
			obj, ok := av.(map[string]any)
			if !ok {
				s, _ := av.(string)
				var parsed map[string]any
				if json.Unmarshal([]byte(s), &parsed) != nil {
					parsed = map[string]any{}
				}
				obj = parsed
			}
			if !c.exists(e, obj) {
				return false
			}
		}
	}
	return true
}
