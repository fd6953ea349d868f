package core

import "github.com/sessiontree/sessiontree/core/internal/tree"

// The session tree itself (sessions, nodes, branches, annotations, the
// snapshot codec and the context) is package core/internal/tree; core is
// its store and its API. The tree's types, codes and constants that core's
// API hands out are named here as core's own, so a caller imports core
// alone.

// Session is one session tree (tree.Session). A caller reads it through
// the Store's methods; its fields are the store's to change.
type Session = tree.Session

// Node is one node of a session (tree.Node): a message, a summary or an
// entry, with its id, parent, branch and time.
type Node = tree.Node

// Annotation is one annotation record of a session (tree.Annotation).
type Annotation = tree.Annotation

// Marks are a node's annotation marks: its label, hidden and preferred
// (tree.Marks).
type Marks = tree.Marks

// Status is the value of create, jump, branch, fork, clone, rename and
// snapshot.load (tree.Status).
type Status = tree.Status

// ListItem is one node of list (tree.ListItem).
type ListItem = tree.ListItem

// BranchInfo is one branch of branches (tree.BranchInfo).
type BranchInfo = tree.BranchInfo

// Context is the value of context: the cursor, the root→cursor path as an
// LLM messages array and the state at the cursor (tree.Context).
type Context = tree.Context

// State is the configuration in force at a node (tree.State).
type State = tree.State

// ModelState is the model part of State (tree.ModelState).
type ModelState = tree.ModelState

// Diff is the value of diff (tree.Diff); DiffEnd one of its two ends and
// DiffNode one node of a side.
type (
	Diff     = tree.Diff
	DiffEnd  = tree.DiffEnd
	DiffNode = tree.DiffNode
)

// Leaf is the value of leaf and switch (tree.Leaf).
type Leaf = tree.Leaf

// Tree is the value of tree (tree.Tree); TreeRow one of its rows.
type (
	Tree    = tree.Tree
	TreeRow = tree.TreeRow
)

// RawMessage is a raw encoded JSON value, kept byte for byte
// (tree.RawMessage, jsonx.RawMessage).
type RawMessage = tree.RawMessage

// Code is one of the error codes of the envelope (tree.Code).
type Code = tree.Code

// Error is the error every operation returns: a code and a plain,
// lowercase message naming the field or node at fault (tree.Error). Two
// match under errors.Is when their codes are equal.
type Error = tree.Error

// Reason is a failure's cause finer than its code (tree.Reason).
type Reason = tree.Reason

// FileReport says what became of one file of an import (tree.FileReport).
type FileReport = tree.FileReport

// The error codes of SPEC.md (see tree.InvalidArgument and the others).
const (
	InvalidArgument      = tree.InvalidArgument
	SessionNotFound      = tree.SessionNotFound
	SessionAlreadyExists = tree.SessionAlreadyExists
	NodeNotFound         = tree.NodeNotFound
	InvalidSnapshot      = tree.InvalidSnapshot
	NotFound             = tree.NotFound
)

// Sentinel errors for errors.Is, one per code; their messages are empty.
var (
	ErrInvalidArgument      = tree.ErrInvalidArgument
	ErrSessionNotFound      = tree.ErrSessionNotFound
	ErrSessionAlreadyExists = tree.ErrSessionAlreadyExists
	ErrNodeNotFound         = tree.ErrNodeNotFound
	ErrInvalidSnapshot      = tree.ErrInvalidSnapshot
	ErrNotFound             = tree.ErrNotFound
)

// Annotation kinds (see tree.AnnotationLabel and the others).
const (
	AnnotationLabel  = tree.AnnotationLabel
	AnnotationHide   = tree.AnnotationHide
	AnnotationPrefer = tree.AnnotationPrefer
	AnnotationTitle  = tree.AnnotationTitle
	AnnotationImport = tree.AnnotationImport
	AnnotationSource = tree.AnnotationSource
)

// How a session came from another, in its source record (see
// tree.SourceFork and the others).
const (
	SourceFork   = tree.SourceFork
	SourceClone  = tree.SourceClone
	SourceImport = tree.SourceImport
)

// SnapshotVersion is the snapshot format version snapshot.save writes and
// snapshot.load reads.
const SnapshotVersion = tree.SnapshotVersion

// MaxTitleLength is the longest session title, in characters (runes).
const MaxTitleLength = tree.MaxTitleLength

// SummaryPreamble and SummaryClosing wrap a summary node's text in the
// user message context makes of it.
const (
	SummaryPreamble = tree.SummaryPreamble
	SummaryClosing  = tree.SummaryClosing
)

// SummaryMessage returns the chat message context gives for a summary
// node: {"role":"user","content":SummaryPreamble+summary+SummaryClosing}.
func SummaryMessage(summary string) RawMessage { return tree.SummaryMessage(summary) }

// ParseEntry validates the entry object of an append request,
// {"kind":…, …fields}, and returns its kind and fields. field names the
// object in error messages ("entry"). Errors are INVALID_ARGUMENT naming
// the bad field ("entry.model must be a non-empty string").
func ParseEntry(raw RawMessage, field string) (string, *Entry, *Error) {
	return tree.ParseEntry(raw, field)
}
