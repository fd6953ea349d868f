// Package views writes the values of the read-only views of a session
// straight into the reply: tree.rows (a window of the display order, in
// columns), map (segments laid out as a tidy tree, and what grew since a
// revision), family (the sessions forked from one another), what export
// hands the exporters, and a context in columns over the session's text
// cache. What the views keep between calls is theirs (Caches), by
// session, dropped when the session leaves the store.
package views
