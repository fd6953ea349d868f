package core

import (
	"testing"

	"github.com/sessiontree/sessiontree/core/internal/msgtext"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMessageTextIsWhatTheDecoderGives holds MessageText's one-pass
// reading to the decoder's (msgtext.Decoded) on every message of every
// fixture import.
func TestMessageTextIsWhatTheDecoderGives(t *testing.T) {
	for _, name := range fixtureFiles {
		st := testStore(t)
		res, err := st.Import(fixture(t, name), "auto")
		require.Nil(t, err, name)
		for _, s := range res.Sessions {
			for _, n := range st.Session(s.SessionID).Nodes {
				if n.Message != nil {
					assert.Equal(t, msgtext.Decoded(n.Message), MessageText(n.Message), "%s: %s", name, n.ID)
				}
			}
		}
	}
}
