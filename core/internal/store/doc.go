// Package store holds the sessions of one page or process: a Store keeps
// them by id in creation order, with the clock and the ids it draws, the
// change log the shim drains into IndexedDB (changes.go), stubs of the
// sessions paged out of memory (paging.go), the memory budget
// (memory.go), the trash, and the search index with what it holds of each
// session, a paged-out one included (search_index.go, search_save.go).
//
// Its typed operations (api.go: Create, Append, Jump, Branch, Fork,
// Clone, Context, Label, Hide, Prefer, Rename, snapshots, Search) are
// what package core's requests, package command's text commands and a Go
// program call. A session that leaves the store, replaced or removed, is
// told to OnLeave, so what a consumer keeps of it can go.
package store
