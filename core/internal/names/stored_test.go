package names

import (
	"testing"
	"time"

	"github.com/sessiontree/sessiontree/core/internal/formats"
	"github.com/stretchr/testify/assert"
)

func TestTimestampsAreCheckedLikeTimeParse(t *testing.T) {
	// The hand check of the TimeLayout form must accept exactly what
	// time.Parse(time.RFC3339Nano) accepts.
	cases := []string{
		"2026-11-29T22:13:42.123Z", "2024-02-29T00:00:00.000Z", "2023-02-29T00:00:00.000Z",
		"2000-02-29T23:59:59.999Z", "1900-02-29T12:00:00.000Z", "2026-04-31T10:00:00.000Z",
		"2026-12-31T23:59:59.000Z", "2026-13-01T00:00:00.000Z", "2026-00-10T00:00:00.000Z",
		"2026-01-00T00:00:00.000Z", "2026-01-01T24:00:00.000Z", "2026-01-01T23:60:00.000Z",
		"2026-01-01T23:59:60.000Z", "2026-01-01T23:59:59.00xZ", "2026/01/01T00:00:00.000Z",
		"2026-01-01 00:00:00.000Z", "0000-01-01T00:00:00.000Z", "2026-01-01T00:00:00.000z",
		"2026-1-01T00:00:00.0000Z", "+026-01-01T00:00:00.000Z", "2026-01-01T00:00:00.000+",
	}
	for _, c := range cases {
		_, err := time.Parse(time.RFC3339Nano, c)
		assert.Equal(t, err == nil, ValidTimestamp(c), "%s", c)
		if len(c) == len(formats.TimeLayout) && IsTimeLayout(c) {
			assert.NoError(t, err, "the fast path accepted %s", c)
		}
	}
	assert.True(t, IsTimeLayout("2024-02-29T00:00:00.000Z"), "the fast path takes the form sessiontree writes")
	assert.True(t, ValidTimestamp("2026-11-29T22:13:42+01:00"), "other RFC 3339 forms still pass through time.Parse")
}

func FuzzTimeLayout(f *testing.F) {
	for _, s := range []string{"2026-11-29T22:13:42.123Z", "2024-02-29T00:00:00.000Z", "2026-02-29T00:00:00.000Z", "2026-1/-29T22:13:42.123Z"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) != len(formats.TimeLayout) {
			return
		}
		// The hand check accepts exactly the strings of its form that
		// time.Parse accepts.
		_, err := time.Parse(time.RFC3339Nano, s)
		fast := IsTimeLayout(s)
		if fast && err != nil {
			t.Fatalf("IsTimeLayout accepts %q, time.Parse does not: %v", s, err)
		}
		if !fast && err == nil && s[19] == '.' && s[23] == 'Z' && s[10] == 'T' {
			t.Fatalf("IsTimeLayout refuses %q, which time.Parse accepts", s)
		}
	})
}
