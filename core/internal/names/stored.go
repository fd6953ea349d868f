package names

import (
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/sessiontree/sessiontree/core/internal/formats"
)

// ValidBranch checks a branch name read from stored data (a snapshot being
// restored, an import keeping its branches): 1–128 characters, valid
// UTF-8, no control characters. Requests and snapshot.load apply the
// stricter Problem.
func ValidBranch(name string) bool {
	return Valid(name, MaxBranchNameLength)
}

// Valid checks a name or id read from stored data: 1–max characters, valid UTF-8, not only
// white space, no control characters and no bidirectional overrides
// (U+202A–U+202E, U+2066–U+2069), which would make it display as
// something it is not.
func Valid(name string, max int) bool {
	if strings.TrimSpace(name) == "" || !utf8.ValidString(name) || utf8.RuneCountInString(name) > max {
		return false
	}
	for _, r := range name {
		if unicode.IsControl(r) || r >= '\u202a' && r <= '\u202e' || r >= '\u2066' && r <= '\u2069' {
			return false
		}
	}
	return true
}

// ValidSessionID checks a session id read from stored data: 1–256
// characters, valid UTF-8, no control characters. Requests, snapshot.load
// and imports apply the stricter Problem.
func ValidSessionID(id string) bool {
	return Valid(id, MaxSessionIDLength)
}

// ValidTimestamp reports whether s parses as RFC 3339 (as
// time.Parse(time.RFC3339Nano, s) does), the form sessiontree writes
// (formats.TimeLayout) checked without time.Parse.
func ValidTimestamp(s string) bool {
	if len(s) == len(formats.TimeLayout) && IsTimeLayout(s) {
		return true
	}
	_, err := time.Parse(time.RFC3339Nano, s)
	return err == nil
}

// IsTimeLayout reports whether s is a valid time written in formats.TimeLayout
// ("2026-11-29T22:13:42.123Z", the form sessiontree writes), checked by
// hand: time.Parse per node was a tenth of loading a snapshot in wasm.
// Anything it refuses is still given to time.Parse.
func IsTimeLayout(s string) bool {
	// Straight-line code: a closure per field and a table built per call
	// were 4.7 % of a 100,000-node load in wasm.
	if len(s) != 24 || s[4] != '-' || s[7] != '-' || s[10] != 'T' || s[13] != ':' || s[16] != ':' || s[19] != '.' || s[23] != 'Z' {
		return false
	}
	for _, k := range [...]uint8{0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18, 20, 21, 22} {
		if s[k]-'0' > 9 { // a byte below '0' wraps around
			return false
		}
	}
	two := func(k int) int { return int(s[k]-'0')*10 + int(s[k+1]-'0') }
	year := two(0)*100 + two(2)
	month, day := two(5), two(8)
	if month < 1 || month > 12 || two(11) > 23 || two(14) > 59 || two(17) > 59 {
		return false
	}
	days := monthDays[month]
	if month == 2 && year%4 == 0 && (year%100 != 0 || year%400 == 0) {
		days = 29
	}
	return day >= 1 && day <= days
}

// monthDays is the number of days of each month (1–12) in a common year.
var monthDays = [13]int{0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31}
