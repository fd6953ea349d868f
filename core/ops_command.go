package core

import (
	"github.com/sessiontree/sessiontree/core/internal/command"
	"github.com/sessiontree/sessiontree/core/internal/tree"
)

// opCommand answers {"operation":"command","line":…,"sessionId"?}: the
// text command of the line (core/internal/command), run on the store.
func opCommand(st *Store, r *request) (any, *Error) {
	line, err := r.str("line")
	if err != nil {
		return nil, err
	}
	c, cmd, err := command.Parse(line)
	if err != nil {
		return nil, err
	}
	if !cmd.NoSession {
		if !r.has("sessionId") {
			return nil, tree.Invalidf("field \"sessionId\" is required for %s", command.Usage(c.Name))
		}
		// The session need not exist yet: /tree snapshot load creates it;
		// every other command fails with SESSION_NOT_FOUND in its run.
		if c.SessionID, err = r.sessionID(); err != nil {
			return nil, err
		}
	}
	res, err := cmd.Run(st.s, c)
	if err != nil {
		return nil, err
	}
	res.Command = "/" + c.Name
	return res, nil
}
