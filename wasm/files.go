//go:build js && wasm

package main

import (
	"syscall/js"

	"github.com/sessiontree/sessiontree/core"
)

// importFiles(manifest, id): core.Store.ImportFiles of the files whose
// bytes fill import buffer id (used up) one after another, as manifest (a
// JSON string [{"path","size"},…]; core.ParseFileManifest) lists them: a
// folder crosses as one buffer of bytes, never as JSON text. Answers the
// envelope of the report (core.FilesResult). A PagedOut answer leaves the
// buffer in place, for the call made again once the sessions are loaded.
func (h *handle) importFiles(args []js.Value) any {
	if !argIs(args, 0, js.TypeString) || !argIs(args, 1, js.TypeNumber) {
		return badArgument("importFiles takes the file list as a JSON string and the id of an import buffer")
	}
	manifest, _ := argBytes(args, 0)
	data, ok := h.imports.TakeBuffer(args[1].Int())
	if !ok {
		return badArgument("importFiles: no such import buffer")
	}
	files, err := core.ParseFileManifest(manifest, data)
	if err != nil {
		return string(core.ErrorEnvelope(err))
	}
	return bulk(len(data), func() string {
		res, err := h.st.ImportFiles(files)
		if err != nil {
			if err.Code == core.PagedOut {
				h.imports.PutBack(args[1].Int(), data) // changed nothing: made again once the sessions are loaded
			}
			return string(core.ErrorEnvelope(err))
		}
		return string(core.ValueEnvelope(res))
	})
}
