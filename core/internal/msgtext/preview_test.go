package msgtext

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// Preview's ASCII shortcut must give exactly what the rune-by-rune walk
// gives.
func TestPreviewShortcutMatchesTheRuneWalk(t *testing.T) {
	long := strings.Repeat("word ", 30)
	for name, text := range map[string]string{
		"an empty text":                              "",
		"a short plain text":                         "hello world",
		"a text cut inside a word":                   long,
		"a text with a space where it is cut":        strings.Repeat("a", 79) + " b c",
		"a text with a space just after the cut":     strings.Repeat("a", 80) + " b",
		"a text with only spaces after the cut":      strings.Repeat("a", 80) + "   ",
		"a text with a newline after the cut":        strings.Repeat("a", 80) + "\nb",
		"a text with leading white space":            "  hello",
		"a text with a trailing space":               "hello ",
		"a text with double spaces":                  "hello  world",
		"a text with a tab and a newline":            "hello\tworld\nagain",
		"a text with a combining mark after the cut": strings.Repeat("e", 80) + "\u0301 more",
		"a text with a combining mark after a space": strings.Repeat("e", 80) + " \u0301",
		"a text with a no-break space after the cut": strings.Repeat("e", 80) + "\u00a0",
		"a text with accents":                        "café São Tomé " + long,
		"a text with a control character":            "a\x01b",
		"a text of exactly the preview length":       strings.Repeat("x", 80),
	} {
		t.Run(name, func(t *testing.T) {
			assert.Equal(t, runePreview(text, PreviewLength), Preview(text, PreviewLength), "Preview(%q)", text)
		})
	}
}

func FuzzPreview(f *testing.F) {
	f.Add("hello world", 5)
	f.Add(strings.Repeat("ab ", 40), 80)
	f.Add("x \u0301", 1)
	f.Fuzz(func(t *testing.T, text string, max int) {
		if max < 0 || max > 200 {
			return
		}
		if got, want := Preview(text, max), runePreview(text, max); got != want {
			t.Fatalf("Preview(%q, %d) = %q, want %q", text, max, got, want)
		}
	})
}
