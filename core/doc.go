// Package core is sessiontree's engine: an append-only, multi-branch
// session tree for LLM chat and agent sessions, with fuzzy search and
// importers of chat and agent exports, in pure Go (it never imports
// syscall/js; package wasm binds it for the browser).
//
// A Store holds the sessions of one page or process. Go programs call its
// typed methods (Create, Append, Jump, Branch, Fork, Context, Label,
// Search, Import, …; see ExampleStore_typed); the browser's shim sends
// JSON requests through Call, one operation each ({"operation":"append",
// …}), and gets one envelope back ({"ok":true,"value":…} or
// {"ok":false,"error":{"code":…,"message":…}}). The operation table, the
// error codes and the constants the shim shares are the contract
// (dispatch.go, protocol.go), from which go generate writes js/protocol.js.
//
// core is the API layer over the packages under core/internal, each with
// one job, imports only going down (core/layers_test.go): tree (the
// session tree), store (the sessions of a page), importer, command and
// views. It names their types as its own, so a caller imports core alone.
package core
