// Package formats converts between sessiontree and other chat tools'
// export formats, as pure functions that never see a Store or Session.
//
// Importing: SniffData reads the shape of an export and the fields of its
// first record; each entry of Importers detects its format from that
// (Importer.Detect) and converts the export's bytes into Conversation
// values, format-neutral trees of Records linked by ParentID, with the
// Warnings of what it skipped or guessed. JSON exports are read a top-level
// array element at a time (ArrayReader), JSON-lines exports a line at a
// time (LineReader). The rules of sessiontree's data model that a record
// must meet (a valid message, entry or session id) come from core through
// a Model, since this package cannot import core; core turns each
// Conversation into a session.
//
// Exporting: core builds an ExportSession (nodes, cursor path, context,
// annotations) and each entry of Exporters writes it as a file's bytes.
//
// The vocabulary both sides share (node kinds, Entry, TimeLayout,
// DefaultBranch) is defined here and re-exported by core under the same
// names. The package imports only the standard library and
// core/internal/jsonx.
package formats
