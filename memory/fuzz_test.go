// Fuzz tests of the parsers: the decoder of every stored value, the dump line parser and Import, the check of
// events as a client sends them over the socket, and the PostgreSQL URL's redaction.

package memory

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/url"
	"slices"
	"strings"
	"testing"
)

// FuzzDecodeValue feeds any key and value to the stored-record decoder: it never panics, and what it accepts
// encodes back to a value it decodes to the same record under the same key.
func FuzzDecodeValue(f *testing.F) {
	seeds := []struct{ key, value string }{
		{"o/stockfish 16", `{"key":"stockfish 16","names":["Stockfish 16"],"kind":"computer","ratings":[{"elo":3000,"source":"uci","at":"2026-01-01T00:00:00Z"}],"first":"2026-01-01T00:00:00Z","last":"2026-01-01T00:00:00Z"}`},
		{"a/sf", `{"alias":"sf","key":"stockfish"}`},
		{"h/g1", `{"id":"g1","key":"x","game":"chess","side":1,"result":"1-0","score":1,"moves":["e2e4"]}`},
		{"m/g1/00003/1", `{"game":"g1","ply":3,"opp":true,"hash":"00000000000000ff","move":"e7e5","ms":5,"prob":0.5,"eval":-3}`},
		{"s/x/depth/00000000001767225600000000000/g1", `{"key":"x","model":"depth","at":"2026-01-01T00:00:00Z","game":"g1","state":[1,2]}`},
		{"m/a%2Fb/00000/0", `{"game":"a/b","ply":0,"move":"P@d1"}`},
		{"o/x", `{"key":"x","names":[7]}`},
		{"v/schema", `3`},
		{"x/x/g1", `{"key":"x","id":"g1","game":"chess","ply":4,"fen":"f","move":"d1h5","value":-815,"best":"b1c3","best_value":35,"depth":8,"at":"2026-01-01T00:00:00Z"}`},
		{"e/x/chess/0000000000001111", `{"key":"x","game":"chess","hash":"0000000000001111","fen":"f","move":"b1c3","value":35,"depth":8,"bound":"lower","v":1,"id":"g1","at":"2026-01-01T00:00:00Z"}`},
		{"c/chess/0000000000002222", `{"game":"chess","hash":"0000000000002222","fen":"f","value":815,"depth":7,"bound":"exact","v":1,"at":"2026-01-01T00:00:00Z"}`},
		{"j/j1", `{"id":"j1","kind":"analysis","key":"x","game":"chess","game_id":"g1","priority":-1,"payload":{ "ply": 4 },"created":"2026-01-01T00:00:00Z","attempts":2,"worker":"w","lease":"2026-01-01T00:01:00Z"}`},
		{"j/j%2F2", `{"id":"j/2","kind":"fold","created":"2026-01-01T00:00:00Z","worker":"w"}`},
	}
	for _, s := range seeds {
		f.Add(s.key, []byte(s.value))
	}
	f.Fuzz(func(t *testing.T, key string, value []byte) {
		rec, err := decodeValue([]byte(key), value)
		if err != nil {
			return
		}
		again, err := decodeValue([]byte(key), encodeValue(rec))
		if err != nil {
			t.Fatalf("%q %q decoded, but its encoding %s does not: %v", key, value, encodeValue(rec), err)
		}
		if !bytes.Equal(encodeValue(again), encodeValue(rec)) {
			t.Fatalf("%s decodes to %s", encodeValue(rec), encodeValue(again))
		}
	})
}

// FuzzDecodeStrictReused decodes any two values one after the other with decodeStrict's reused decoders: the
// second is accepted or refused, and decoded to the same value, exactly as a decoder of its own does, whatever
// the first left behind.
func FuzzDecodeStrictReused(f *testing.F) {
	for _, s := range [][2]string{
		{`{"a":"x","b":[1,2]}`, `{"a":"y"}`},
		{`{"a":"x","c":1}`, `{"a":"y"}`},     // an unknown field first
		{`{"a":"x"} {"a":"z"}`, `{"b":[3]}`}, // data after the record first
		{`{"a":"x"`, `{"a":"y"}  `},          // cut short first
		{`{"a":"x"}`, ` {"a":"y"} x`},
		{`{"a":"x"}`, ``},
		{`  `, `{"a":1}`},
	} {
		f.Add([]byte(s[0]), []byte(s[1]))
	}
	type probe struct {
		A string `json:"a"`
		B []int  `json:"b"`
	}
	f.Fuzz(func(t *testing.T, first, second []byte) {
		var p probe
		_ = decodeStrict(first, &p)
		var got, want probe
		err := decodeStrict(second, &got)
		wantErr := newStrictDecoder().decodeFrom(second, &want)
		if (err == nil) != (wantErr == nil) {
			t.Fatalf("after %q, %q: error %v, a decoder of its own %v", first, second, err, wantErr)
		}
		if err == nil && (got.A != want.A || !slices.Equal(got.B, want.B)) {
			t.Fatalf("after %q, %q decoded to %+v, a decoder of its own to %+v", first, second, got, want)
		}
	})
}

// FuzzImport imports any input into a store: malformed input is refused whole with its line number and leaves
// the store as it was; accepted input imported a second time changes nothing.
func FuzzImport(f *testing.F) {
	schema := `{"type":"schema","version":3}` + "\n"
	f.Add(schema + `{"type":"opponent","key":"x","names":["X"]}` + "\n")
	f.Add(schema + `{"type":"opponent","key":"a"}` + "\n" + `{"type":"opponent","key":"b"}` + "\n" + `{"type":"alias","alias":"a","key":"b"}` + "\n")
	f.Add(schema + `{"type":"game","id":"g","key":"x","side":0}` + "\n" + `{"type":"move","game":"g","ply":0,"move":"e2e4","hash":"0000000000000001"}` + "\n")
	f.Add(schema + `{"type":"model","key":"x","model":"m","at":"2026-01-01T00:00:00Z","state":{}}` + "\n")
	f.Add(schema + `{"type":"move","game":"g","ply":-1,"move":"e2e4"}` + "\n")
	f.Add(schema + `{"type":"mistake","key":"x","id":"g","game":"chess","ply":4,"fen":"f","move":"a","value":-2,"best":"b","best_value":1,"depth":8,"at":"2026-01-01T00:00:00Z"}` + "\n")
	f.Add(schema + `{"type":"experience","key":"x","game":"chess","hash":"0000000000000001","fen":"f","value":1,"depth":8,"bound":"upper","v":1,"at":"2026-01-01T00:00:00Z"}` + "\n" +
		`{"type":"experience","game":"chess","hash":"0000000000000001","fen":"f","value":2,"depth":9,"bound":"exact","v":2,"at":"2026-01-01T00:00:00Z"}` + "\n")
	f.Add(schema + `{"type":"job","id":"j1","kind":"fold","key":"x","created":"2026-01-01T00:00:00Z"}` + "\n" +
		`{"type":"job","id":"j2","kind":"fold","key":"x","payload":[1],"created":"2026-01-01T00:00:00Z","attempts":1,"worker":"w","lease":"2026-01-01T00:01:00Z"}` + "\n")
	f.Add(`{"type":"opponent","key":"x"}`)
	f.Add("")
	m := openTemp(f)
	f.Fuzz(func(t *testing.T, input string) {
		before := dumpString(t, m)
		_, err := m.Import(strings.NewReader(input))
		if err != nil {
			if !errors.Is(err, ErrBadImport) {
				t.Fatalf("import failed with %v, not ErrBadImport", err)
			}
			if input != "" && strings.TrimSpace(input) != "" && !strings.Contains(err.Error(), "line ") {
				t.Fatalf("the error %q names no line", err)
			}
			if after := dumpString(t, m); after != before {
				t.Fatalf("a refused import changed the store:\n%s\nto\n%s", before, after)
			}
			return
		}
		first := dumpString(t, m)
		stats, err := m.Import(strings.NewReader(input))
		if err != nil {
			t.Fatalf("the second import of an accepted input failed: %v", err)
		}
		if after := dumpString(t, m); after != first || stats.Added != 0 {
			t.Fatalf("importing twice changed the store (%+v):\n%s\nto\n%s", stats, first, after)
		}
	})
}

// FuzzEventRecord checks events as the owner receives them from a client: whatever the JSON, check never
// panics, and an event it accepts applies without error.
func FuzzEventRecord(f *testing.F) {
	f.Add(`{"type":"move","move":{"game":"g","ply":1,"move":"e2e4"}}`)
	f.Add(`{"type":"start","sighting":{"key":"x","name":"X","at":"2026-01-01T00:00:00Z"},"game":{"id":"g","key":"x","side":0}}`)
	f.Add(`{"type":"end","game":{"id":"g","side":0,"result":"*"}}`)
	f.Add(`{"type":"takeback","takeback":{"game":"g","to_ply":0}}`)
	f.Add(`{"type":"sighting","sighting":{"key":"(unknown)","at":"2026-01-01T00:00:00Z"}}`)
	f.Add(`{"type":"model","model":{"key":"x","model":"m","at":"2026-01-01T00:00:00Z","state":1}}`)
	m := openTemp(f)
	f.Fuzz(func(t *testing.T, input string) {
		var ev eventRec
		if json.Unmarshal([]byte(input), &ev) != nil || ev.check() != nil {
			return
		}
		if err := m.own.st.commitEvents([]*eventRec{&ev})[0]; err != nil {
			t.Fatalf("a checked event %s failed: %v", input, err)
		}
	})
}

// FuzzRedactURL builds PostgreSQL URLs with a password (in the user part or a password parameter) around any
// user, host, path and query: RedactURL never panics and never returns the password, and schemaOf takes the
// schema parameter out without losing the rest.
func FuzzRedactURL(f *testing.F) {
	f.Add("dossier", "s3cret-pw", "db.example:5432", "chess", "sslmode=require&schema=lab", false)
	f.Add("u", "p@ss/w:rd%", "[::1]:5432", "d", "", true)
	f.Add("", "pässwörd", "h", "", "password=x", false)
	f.Fuzz(func(t *testing.T, user, pw, host, path, query string, inQuery bool) {
		if len(pw) < 6 || strings.Contains(user+host+path+query, pw) {
			t.Skip()
		}
		u := &url.URL{Scheme: "postgres", Host: host, Path: "/" + path, RawQuery: query}
		if inQuery {
			q, _ := url.ParseQuery(query)
			q.Set("password", pw)
			u.RawQuery = q.Encode()
			u.User = url.User(user)
		} else {
			u.User = url.UserPassword(user, pw)
		}
		loc := u.String()
		red := RedactURL(loc)
		for _, form := range []string{pw, url.QueryEscape(pw), url.PathEscape(pw), (&url.URL{User: url.UserPassword("", pw)}).String()[3:]} {
			if len(form) >= 6 && strings.Contains(red, form) {
				t.Fatalf("RedactURL(%q) = %q holds the password", loc, red)
			}
		}
		got, schema := schemaOf(loc, "dflt")
		if q, err := url.ParseQuery(u.RawQuery); err == nil && !q.Has("schema") && (got != loc || schema != "dflt") {
			t.Fatalf("schemaOf(%q) = %q, %q", loc, got, schema)
		}
		if schema == "" || strings.Contains(got, "schema=") && !strings.Contains(loc, "schema=") {
			t.Fatalf("schemaOf(%q) = %q, %q", loc, got, schema)
		}
	})
}
