// Telling a memory location that was meant as a PostgreSQL URL but is not one from a directory: a typo in a URL
// must not become a directory whose path holds the password.

package memory

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
)

// urlSchemes are the schemes a memory URL may have; IsURL takes them as written, in lower case.
var urlSchemes = []string{"postgres", "postgresql"}

// credentialsAt matches the "user:password@host" of a URL, however the rest of it is mangled: a colon, then
// an "@" with no "/" between them, after a name.
var credentialsAt = regexp.MustCompile(`[^/:@\s]+:[^/@\s]*@`)

// CheckLocation returns an ErrBadLocation error when a memory location looks like a URL but is none a memory can
// use: a PostgreSQL scheme without "://" ("postgres//...", "postgres:/..."), a scheme other than postgres:// or
// postgresql:// ("mysql://...", "POSTGRES://...", "file://..."), or user:password@host credentials in what
// would otherwise be a directory. Such a location, taken as a directory, would be created with the password in
// its path. The error shows the location without anything that could be a password. A PostgreSQL URL and a
// plain directory (including "", the default) pass; the URL's own syntax is checked when it is opened.
func CheckLocation(location string) error {
	if IsURL(location) {
		return nil
	}
	lower := strings.ToLower(location)
	var problem string
	switch scheme, _, hasScheme := strings.Cut(location, "://"); {
	case hasScheme && isSchemeName(scheme):
		problem = fmt.Sprintf("%q is not a memory URL's scheme; a database is postgres://USER@HOST:PORT/DATABASE "+
			"(or postgresql://)", scheme)
	case misspelledScheme(lower):
		problem = `it starts like a PostgreSQL URL but lacks "://" after the scheme; a database is ` +
			"postgres://USER@HOST:PORT/DATABASE"
	case credentialsAt.MatchString(location):
		problem = `it holds "user:password@host" as a URL does, but is no postgres:// URL; a directory ` +
			"must not carry a password"
	default:
		return nil
	}
	return &Error{Dir: redactLocation(location), Kind: ErrBadLocation, Err: errors.New(problem)}
}

// isSchemeName reports whether s can be a URL's scheme (RFC 3986: a letter, then letters, digits, "+", "-",
// "."), so that a directory with "://" deep in its path is not taken for a URL.
func isSchemeName(s string) bool {
	if s == "" || !isLetter(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		c := s[i]
		if !isLetter(c) && !(c >= '0' && c <= '9') && c != '+' && c != '-' && c != '.' {
			return false
		}
	}
	return true
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// misspelledScheme reports whether a lower-cased location begins with a PostgreSQL scheme followed by a colon
// or "//" but not by "://": "postgres//host", "postgres:/host", "postgresql:host". A directory merely named
// postgres ("postgres/data", "postgres-old") is not one.
func misspelledScheme(lower string) bool {
	for _, s := range urlSchemes {
		if rest, ok := strings.CutPrefix(lower, s); ok &&
			(strings.HasPrefix(rest, ":") || strings.HasPrefix(rest, "//")) {
			return true
		}
	}
	return false
}

// schemeLike is the start of a location up to where a URL's user part would begin: a scheme-like word and
// the colon and slashes after it, as mangled as they come ("postgres//", "postgres:/", "mysql://").
var schemeLike = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]*:?/*`)

// redactLocation hides what could be a password in a location that is no URL: everything between the
// scheme-like start and the last "@" goes, user name included, since where the password begins and ends in
// a mangled URL (a "/" or an "@" may be in it) is a guess.
func redactLocation(location string) string {
	at := strings.LastIndex(location, "@")
	if at < 0 {
		return location
	}
	from := len(schemeLike.FindString(location[:at]))
	return location[:from] + "********" + location[at:]
}
