package formats

import (
	"testing"

	"github.com/sessiontree/sessiontree/core/internal/jsonx"
	"github.com/stretchr/testify/assert"
)

func TestLineTimesReadsATimestampAsUnixSecondsAndIsoStampDo(t *testing.T) {
	for _, raw := range []string{
		`"2026-01-02T03:04:20.000Z"`, `"2024-02-29T23:59:59.999Z"`, `"2023-02-29T00:00:00.000Z"`, `"2026-04-31T00:00:00.000Z"`,
		`"2026-13-01T00:00:00.000Z"`, `"2026-01-00T00:00:00.000Z"`, `"2026-01-01T24:00:00.000Z"`, `"2026-01-01T00:60:00.000Z"`,
		`"2026-01-01T00:00:60.000Z"`, `"0000-01-01T00:00:00.000Z"`, `"9999-12-31T23:59:59.999Z"`, `"1900-02-29T00:00:00.000Z"`,
		`"2000-02-29T00:00:00.000Z"`, `"2026-01-02T03:04:20Z"`, `"2026-01-02T05:04:20.5+02:00"`, `"2026-01-02t03:04:20.000z"`,
		`"2026-01-02T03:04:20.000+00:00"`, `"2026-01-02 03:04:20.000Z"`, `"\u0032026-01-02T03:04:20.000Z"`, `"yesterday"`,
		`1767323060000`, `1767323060`, `null`, `""`, `"2026-01-0x"`,
	} {
		gotT, gotS := lineTimes([]byte(raw))
		assert.Equal(t, unixSeconds(jsonx.RawMessage(raw)), gotT, "lineTimes(%s) seconds", raw)
		assert.Equal(t, isoStamp(jsonx.RawMessage(raw)), gotS, "lineTimes(%s) stamp", raw)
	}
}

func FuzzLineTimes(f *testing.F) {
	f.Add([]byte(`"2026-01-02T03:04:20.000Z"`))
	f.Add([]byte(`"2024-02-29T23:59:59.999Z"`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		if !jsonx.Valid(raw) {
			return
		}
		gotT, gotS := lineTimes(raw)
		if wantT, wantS := unixSeconds(raw), isoStamp(raw); gotT != wantT || gotS != wantS {
			t.Fatalf("lineTimes(%s) = %v, %q; unixSeconds and isoStamp give %v, %q", raw, gotT, gotS, wantT, wantS)
		}
	})
}
