// Package tree is the session tree itself, with no store: a Session holds
// its nodes in append order (parent links by index, so every walk is a
// loop and a 1,000,000-deep chain is fine), its branches, its cursor and
// its append-only annotations, newest record winning.
//
// Its methods are the tree's operations, typed: Place and Add (an append
// at the cursor, opening a named branch when the cursor is not the active
// branch's tip), BranchAt, ForkAt, Clone, Annotate; the context at the
// cursor (ContextView, Context: the root→cursor path as an LLM messages
// array and the configuration in force); Status, List, Tree and Diff; the
// snapshot codec (AppendSnapshot, ParseSnapshot: snapshot version 1 of
// SPEC.md). Errors are *Error with one of SPEC.md's codes.
//
// Nothing here records changes or knows other sessions: package store
// does, and changes sessions only through these methods.
package tree
