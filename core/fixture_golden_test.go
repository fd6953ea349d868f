package core

import (
	"strings"
	"testing"

	"github.com/sessiontree/sessiontree/core/internal/jsonx"
	"github.com/stretchr/testify/require"
)

// fixtureFiles is every export file of testdata/fixtures (real public
// exports; see PROVENANCE.md there).
var fixtureFiles = []string{
	"claude-code/dag_compact_after_rewind.jsonl",
	"claude-code/sidechain_integrated.jsonl",
	"echomine/002_with_images.json",
	"librechat/chatbotui-export.json",
	"librechat/chatgpt-citations.json",
	"librechat/chatgpt-modern-export.json",
	"librechat/chatgpt-tree.json",
	"librechat/librechat-export.json",
	"librechat/librechat-opts-nonr-branches.json",
	"librechat/librechat-tree.json",
	"librechat/openwebui-export.json",
}

// TestFixtureSnapshotsGolden imports every fixture and compares its
// report and the snapshot.save answer of each session it makes, byte for byte, with
// testdata/golden/: the files were written on the commit before core was
// split into packages (issue 14), so any change a later move makes to what
// an import builds or what a snapshot writes shows here. `go test ./core
// -run TestFixtureSnapshotsGolden -update` rewrites them after an intended
// change.
func TestFixtureSnapshotsGolden(t *testing.T) {
	for _, name := range fixtureFiles {
		t.Run(name, func(t *testing.T) {
			st := testStore(t)
			res, err := st.Import(fixture(t, name), "auto")
			require.Nil(t, err, "import of %s", name)
			require.NotEmpty(t, res.Sessions)
			var out strings.Builder
			report, merr := jsonx.Marshal(res)
			require.NoError(t, merr)
			out.Write(report)
			out.WriteByte('\n')
			for _, s := range res.Sessions {
				reply := string(st.Call([]byte(`{"operation":"snapshot.save","sessionId":` + string(jsonx.AppendString(nil, s.SessionID)) + `}`)))
				require.True(t, strings.HasPrefix(reply, `{"ok":true,"value":{`), "snapshot.save of %s: %.200s", s.SessionID, reply)
				out.WriteString(reply)
				out.WriteByte('\n')
			}
			golden(t, "golden/"+strings.ReplaceAll(name, "/", "__")+".snapshots", out.String())
		})
	}
}
