package importer

import (
	"math"
	"path"
	"slices"
	"strings"

	"github.com/sessiontree/sessiontree/core/internal/formats"
	"github.com/sessiontree/sessiontree/core/internal/importplan"
	"github.com/sessiontree/sessiontree/core/internal/jsonx"
	"github.com/sessiontree/sessiontree/core/internal/store"
	"github.com/sessiontree/sessiontree/core/internal/tree"
)

// File is one file of ImportFiles: its path relative to the folder
// chosen ("/" between names; a "\" is read as "/") and its bytes.
type File = formats.File

// FilesResult is the report of ImportFiles: every session made or added
// to, the conversations skipped, the warnings (each naming its file), and
// one line per file saying what became of it.
type FilesResult struct {
	Sessions []FileSession     `json:"sessions"`
	Skipped  []Skipped         `json:"skipped"`
	Warnings []formats.Warning `json:"warnings"`
	Files    []tree.FileReport `json:"files"`
}

// FileSession is a SessionReport with the tool that wrote it (the
// format's name: "claude-code", "opencode", …) and the file or folder it
// came from (a task or storage folder for the multi-file layouts). Project
// is the tool's working folder where known: the conversation's own, else
// one the path gives (Claude Code's projects/<slug>, Pi's sessions/--cwd--,
// Gemini CLI's tmp/<hash>).
type FileSession struct {
	SessionReport
	Tool string `json:"tool"`
	Path string `json:"path"`
}

// ImportFiles imports a set of files at once, as a coding agent or chat app
// keeps them on disk (see formats.GroupFiles for the layouts recognised): each
// group is read first, then every session found is added (or grown, for a
// session imported before: only new nodes are added, so importing the same
// folder twice adds nothing). A file that cannot be read is reported in
// Files and its warnings, never fails the others; nothing is added when no
// file gives a session (INVALID_ARGUMENT naming each file's reason, in its
// message and one by one in its Files).
func ImportFiles(st *store.Store, files []File) (*FilesResult, *tree.Error) {
	res := &FilesResult{Sessions: []FileSession{}, Skipped: []Skipped{}, Warnings: []formats.Warning{}, Files: []tree.FileReport{}}
	for i := range files {
		files[i].Path = formats.CleanPath(files[i].Path)
	}
	groups, skipped := formats.GroupFiles(files)
	// A Claude Code sub-agent's transcript after the rest: its session
	// (its parent's) is made by the parent's file, with the parent's title.
	slices.SortStableFunc(groups, func(a, b formats.FileGroup) int {
		switch sa, sb := subAgentFile(a.Path), subAgentFile(b.Path); {
		case sa == sb:
			return 0
		case sa:
			return 1
		}
		return -1
	})
	// res.Files[k] reports files[k]: by index, as two files may give one path.
	for i, f := range files {
		res.Files = append(res.Files, tree.FileReport{Path: f.Path, Skipped: skipped[i]})
	}
	var jobs []*Job
	var owners []formats.FileGroup
	for _, g := range groups {
		j, err := readGroup(st, files, g)
		if err != nil {
			for _, k := range g.Files {
				res.Files[k].Skipped = err.Message
			}
			res.Warnings = append(res.Warnings, formats.Warning{Message: g.Path + ": " + err.Message})
			continue
		}
		jobs, owners = append(jobs, j), append(owners, g)
	}
	if len(jobs) == 0 {
		var why []string
		for _, r := range res.Files {
			why = append(why, r.Path+": "+r.Skipped)
		}
		if len(why) == 0 {
			why = append(why, "no files were given")
		}
		err := tree.Invalidf("nothing imported: %s", joinReasons(why))
		err.Files = res.Files
		return nil, err
	}
	// A session a job would add to may be paged out (a stub): every such
	// session is asked for before any job adds anything, so the call fails
	// with PagedOut having changed nothing, and is made again once they are
	// loaded (a job's own Finish would fail alone, after the jobs before it
	// had added their sessions).
	if err := importFilesPaged(jobs); err != nil {
		return nil, err
	}
	moved := map[string]string{} // see Job.moved
	reported := map[string]int{} // session id → its entry in res.Sessions
	for k, j := range jobs {
		j.moved = moved
		g := owners[k]
		r, err := j.Finish()
		if err != nil {
			// Reading succeeded and importPaged asked for every stub, so
			// adding should not fail; should it, the file says why.
			for _, f := range g.Files {
				res.Files[f].Skipped = err.Message
			}
			res.Warnings = append(res.Warnings, formats.Warning{Message: g.Path + ": " + err.Message})
			continue
		}
		for _, w := range r.Warnings {
			w.Message = g.Path + ": " + w.Message
			res.Warnings = append(res.Warnings, w)
		}
		res.Skipped = append(res.Skipped, r.Skipped...)
		for _, s := range r.Sessions {
			if s.Project == "" {
				kept := st.ByID[s.SessionID]
				kept.SetOrigin(r.Format, formats.PathProject(g.Path))
				s.Project = kept.Project
			}
			if at, ok := reported[s.SessionID]; ok {
				res.Sessions[at].joined(s) // a sub-agent's file, into its parent's session
				continue
			}
			reported[s.SessionID] = len(res.Sessions)
			res.Sessions = append(res.Sessions, FileSession{SessionReport: s, Tool: r.Format, Path: g.Path})
		}
		for _, f := range g.Files {
			rep := &res.Files[f]
			rep.Tool = r.Format
			if f == g.Files[0] {
				rep.Sessions = len(r.Sessions)
			}
		}
	}
	return res, nil
}

// joined folds into f the report of a later file's import into the same
// session (a Claude Code sub-agent's transcript joining its parent's): one
// entry per session, whether it was there before as the first file found
// it, its nodes added by every file, its project the first's, the rest as
// the session now stands.
func (f *FileSession) joined(s SessionReport) {
	existing, added, warnings, project := f.Existing, f.Added+s.Added, f.Warnings+s.Warnings, f.Project
	f.SessionReport = s
	f.Existing, f.Added, f.Warnings = existing, added, warnings
	// The session keeps the first file's project (Session.SetOrigin): so
	// does its report, as when two repositories hold one Aider history.
	if project != "" {
		f.Project = project
	}
}

// subAgentFile reports whether p names a Claude Code sub-agent's
// transcript by its file name: agent-<id>.jsonl, beside its parent's
// (before Claude Code 2) or in <parent's id>/subagents/.
func subAgentFile(p string) bool {
	base := path.Base(p)
	return strings.HasPrefix(base, "agent-") && strings.HasSuffix(base, ".jsonl")
}

// importFilesPaged asks for every stub the jobs' commits would reach
// (importPaged records each as a fault) and returns the first job's
// PagedOut error, or nil when they reach none.
func importFilesPaged(jobs []*Job) *tree.Error {
	var first *tree.Error
	sameID := sameIDs(jobs...)
	for _, j := range jobs {
		j.sameID = sameID
		if err := j.importPaged(); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// readGroup reads one group into a job whose sessions are ready to add: a
// single file through Start and its steps, a folder layout through
// its reader.
func readGroup(st *store.Store, files []File, g formats.FileGroup) (*Job, *tree.Error) {
	var convs []formats.Conversation
	var warns, encodings []formats.Warning
	for _, k := range g.Files {
		// As a request's text is (dispatch's check): bytes that are not
		// UTF-8 would make sessions whose snapshots do not load back, so
		// importplan.ToUTF8 replaces them, and says so.
		if g.Layout != "file" {
			data, note := importplan.ToUTF8(files[k].Data)
			files[k].Data = data // a single file's import converts (and reports) it itself
			if note != "" {
				encodings = append(encodings, formats.Warning{Message: files[k].Path[strings.LastIndexByte(files[k].Path, '/')+1:] + ": " + note})
			}
		}
	}
	name := g.Layout
	switch g.Layout {
	case "file":
		j, err := startImport(st, files[g.Files[0]].Data, "auto", store.ImportJobGrowth)
		if err != nil {
			return nil, err
		}
		for !j.readDone {
			j.Step(math.MaxInt)
		}
		if j.err != nil {
			return nil, j.err
		}
		return j, nil
	case "cline":
		tf := formats.ClineTaskFiles{TaskID: g.Path[strings.LastIndexByte(g.Path, '/')+1:]}
		for _, k := range g.Files {
			switch base := files[k].Path[strings.LastIndexByte(files[k].Path, '/')+1:]; base {
			case "api_conversation_history.json":
				tf.API = files[k].Data
			case "ui_messages.json":
				tf.UI = files[k].Data
			case "task_metadata.json":
				tf.Metadata = files[k].Data
			}
		}
		if tf.API == nil {
			return nil, tree.Invalidf("the task folder has no api_conversation_history.json (what the model saw); skipped")
		}
		c, w := formats.ConvertClineTask(importChecks, tf)
		convs, warns = []formats.Conversation{c}, w
	case "opencode":
		set := make([]formats.File, 0, len(g.Files))
		for _, k := range g.Files {
			set = append(set, files[k])
		}
		convs, warns = formats.ConvertOpenCode(importChecks, set)
	}
	j := &Job{st: st, data: []byte{'{'}, im: &formats.Importer{Name: name}, readDone: true,
		res: &Result{Format: name, Sessions: []SessionReport{}, Skipped: []Skipped{}, Warnings: []formats.Warning{}}}
	j.res.Warnings = append(j.res.Warnings, encodings...)
	j.warn(warns)
	for _, c := range convs {
		j.build(c)
	}
	j.prepare()
	if j.err != nil {
		return nil, j.err
	}
	return j, nil
}

// manifestEntry is one file of ParseFileManifest's list.
type manifestEntry struct {
	Path *string
	Size *int
}

// manifestEntryType is how errors name a manifestEntry: as Unmarshal named
// the anonymous struct it decoded each file into.
const manifestEntryType = `struct { Path *string "json:\"path\""; Size *int "json:\"size\"" }`

// readManifest reads the file list; the error (quoted to the caller) is
// the syntax error, or the first value that does not fit, in Unmarshal's
// words.
func readManifest(manifest []byte) ([]manifestEntry, error) {
	if err := jsonx.CheckSyntax(manifest); err != nil {
		return nil, err
	}
	var first error
	misfit := func(ok bool, v []byte, typ, field string) {
		if !ok && first == nil {
			first = jsonx.Mismatch(manifest, v, typ, "", field)
		}
	}
	var entries []manifestEntry
	ok := jsonx.ReadList(manifest, &entries, func(el []byte, e *manifestEntry) bool {
		misfit(jsonx.ReadObject(el, pathSizeFields, func(field int, v []byte) {
			if field == 0 {
				misfit(jsonx.ReadStringPtr(v, &e.Path), v, "string", "path")
			} else {
				misfit(jsonx.ReadIntPtr(v, &e.Size), v, "int", "size")
			}
		}), el, manifestEntryType, "")
		return true
	})
	misfit(ok, manifest, "[]"+manifestEntryType, "")
	if first != nil {
		return nil, first
	}
	return entries, nil
}

// ParseFileManifest splits data, the files' bytes one after another, by
// manifest, a JSON array [{"path": string, "size": bytes}, …] in the same
// order (the wasm binding's importFiles: one buffer of bytes, no JSON
// text). Errors (INVALID_ARGUMENT): a manifest that is not such an array,
// or sizes that do not add up to len(data).
func ParseFileManifest(manifest, data []byte) ([]File, *tree.Error) {
	entries, err := readManifest(manifest)
	if err != nil {
		return nil, tree.Invalidf("the file list must be a JSON array of {path, size}: %s", err.Error())
	}
	files := make([]File, 0, len(entries))
	pos := 0
	for i, e := range entries {
		if e.Path == nil || e.Size == nil || *e.Size < 0 || *e.Size > len(data)-pos {
			return nil, tree.Invalidf("file %d of the list needs a path and a size within the %d bytes given", i, len(data))
		}
		files = append(files, File{Path: *e.Path, Data: data[pos : pos+*e.Size : pos+*e.Size]})
		pos += *e.Size
	}
	if pos != len(data) {
		return nil, tree.Invalidf("the file list's sizes add up to %d bytes, but %d were given", pos, len(data))
	}
	return files, nil
}

// stubsAlong appends to ids the stubs among base's "<base>-N" (N from 2,
// ids in the trash left out) up to the first session that take accepts
// or, once `free` free ids were passed (each one a commit of the call
// before may fill), the next free one: every "<id>-N" a commit's walk
// (laterIDs) may reach.
func stubsAlong(st *store.Store, base string, free int, take func(*tree.Session) bool, ids []string) []string {
	walkIDs(st, base, func(s *tree.Session) bool {
		switch {
		case s == nil:
			free--
			return free < 0
		case s.Paged != nil:
			ids = append(ids, s.ID())
			return false
		}
		return take(s)
	})
	return ids
}

// sameIDs counts the sessions the jobs will commit by their id (see
// Job.sameID).
func sameIDs(jobs ...*Job) map[string]int {
	n := map[string]int{}
	for _, j := range jobs {
		for _, s := range j.kept {
			n[s.ID()]++
		}
	}
	return n
}

// importPaged reports the stubs the commits of j would reach (the session
// of each conversation's id, and the "<id>-N" it may be renamed to), as a
// PagedOut error, or nil when there are none: checked before the first
// commit, so an import that needs a paged-out session changes nothing.
func (j *Job) importPaged() *tree.Error {
	st := j.st
	if st.Stubs == 0 {
		return nil
	}
	sameID := j.sameID
	if sameID == nil {
		sameID = sameIDs(j)
	}
	var ids []string
	for _, s := range j.kept {
		base := s.ID()
		into := st.ByID[base]
		if into != nil && into.Paged != nil {
			ids = append(ids, base)
			continue
		}
		// Sessions of the same id committed before this one may fill free
		// "<id>-N" (and the id itself) that this one's walk then passes.
		others := sameID[base] - 1
		switch {
		case j.aside[s]: // parentID looks along the "<id>-N" to the first free one
			ids = stubsAlong(st, base, others, func(*tree.Session) bool { return false }, ids)
		case others > 0 || st.Trash[base] != nil || into != nil && len(into.Nodes) > 0 && len(s.Nodes) > 0 && !j.takes(into, s):
			// As commit: the id held by another conversation, or in the
			// trash, sends it along the "<id>-N" to the first that is free
			// or takes it.
			ids = stubsAlong(st, base, others, func(n *tree.Session) bool { return j.takes(n, s) }, ids)
		}
	}
	if len(ids) == 0 {
		return nil
	}
	return st.PageFault(ids...)
}
