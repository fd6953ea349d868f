package importplan

import (
	"math"

	"github.com/sessiontree/sessiontree/core/internal/formats"
)

// UnixTime returns the timestamp (formats.TimeLayout: RFC 3339, UTC,
// milliseconds) of sec seconds since the Unix epoch, rounded to the
// nearest millisecond, as time.Time's Format writes it; "" for a time that
// is not positive, not finite or past 1e11 seconds (year 5138), which an
// export gives for no time.
func UnixTime(sec float64) string {
	if sec <= 0 || math.IsNaN(sec) || math.IsInf(sec, 0) || sec > 1e11 {
		return ""
	}
	whole, frac := math.Modf(sec)
	// To the nearest millisecond (TimeLayout's unit): 1674559896.839 is
	// 1674559896.838999… as a float.
	ms := int64(whole)*1000 + int64(math.Round(frac*1e3))
	// TimeLayout written by hand, the date by Howard Hinnant's
	// days_from_civil inverse ("chrono-Compatible Low-Level Date
	// Algorithms", civil_from_days): time.Time's Format and even its
	// Date and Clock were 3% of a ChatGPT import in wasm, one call per
	// node. The year has four digits, since 0 < sec ≤ 1e11.
	secs, milli := ms/1000, int(ms%1000)
	day, rem := secs/86400, int(secs%86400)
	z := day + 719468 // days since 0000-03-01
	era := z / 146097
	doe := z - era*146097
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365
	doy := doe - (365*yoe + yoe/4 - yoe/100)
	mp := (5*doy + 2) / 153
	d := int(doy - (153*mp+2)/5 + 1)
	m := int(mp + 3)
	if mp >= 10 {
		m = int(mp - 9)
	}
	y := int(yoe + era*400)
	if m <= 2 {
		y++
	}
	var b [len(formats.TimeLayout)]byte
	put := func(at, v, n int) {
		for k := at + n - 1; k >= at; k-- {
			b[k] = byte('0' + v%10)
			v /= 10
		}
	}
	put(0, y, 4)
	put(5, m, 2)
	put(8, d, 2)
	put(11, rem/3600, 2)
	put(14, rem%3600/60, 2)
	put(17, rem%60, 2)
	put(20, milli, 3)
	b[4], b[7], b[10], b[13], b[16], b[19], b[23] = '-', '-', 'T', ':', ':', '.', 'Z'
	return string(b[:])
}
