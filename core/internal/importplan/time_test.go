package importplan

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/sessiontree/sessiontree/core/internal/formats"
)

func TestUnixTimeWritesTimeLayoutAsTimeFormatDoes(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	secs := []float64{1e-3, 0.0004, 1, 59.9995, 1674559896.839, 1700000282.6999662, 99999999999.9996, 1e11}
	for day := 1; day < 100000; day += 7 { // every weekday of 1970–2243: leap days, century years
		secs = append(secs, float64(day)*86400, float64(day)*86400-0.0004)
	}
	for range 2000 {
		secs = append(secs, r.Float64()*1e11, 1.6e9+r.Float64()*1e8)
	}
	for _, sec := range secs {
		whole, frac := math.Modf(sec)
		want := time.Unix(int64(whole), int64(math.Round(frac*1e3))*1e6).UTC().Format(formats.TimeLayout)
		if got := UnixTime(sec); got != want {
			t.Fatalf("UnixTime(%v) = %q, want %q", sec, got, want)
		}
	}
	for _, sec := range []float64{0, -1, math.NaN(), math.Inf(1), 1e11 + 1} {
		if got := UnixTime(sec); got != "" {
			t.Errorf("UnixTime(%v) = %q, want \"\"", sec, got)
		}
	}
}
