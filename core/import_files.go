package core

import (
	"math"
	"strings"

	"github.com/sessiontree/sessiontree/core/internal/formats"
	"github.com/sessiontree/sessiontree/core/internal/jsonx"
)

// ImportFile is one file of ImportFiles: its path relative to the folder
// chosen ("/" between names; a "\" is read as "/") and its bytes.
type ImportFile = formats.File

// FilesResult is the report of ImportFiles: every session made or added
// to, the conversations skipped, the warnings (each naming its file), and
// one line per file saying what became of it.
type FilesResult struct {
	Sessions []FileSession   `json:"sessions"`
	Skipped  []ImportSkipped `json:"skipped"`
	Warnings []ImportWarning `json:"warnings"`
	Files    []FileReport    `json:"files"`
}

// FileSession is an ImportedSession with the tool that wrote it (the
// format's name: "claude-code", "opencode", …) and the file or folder it
// came from (a task or storage folder for the multi-file layouts). Project
// is the tool's working folder where known: the conversation's own, else
// one the path gives (Claude Code's projects/<slug>, Pi's sessions/--cwd--,
// Gemini CLI's tmp/<hash>).
type FileSession struct {
	ImportedSession
	Tool string `json:"tool"`
	Path string `json:"path"`
}

// FileReport says what became of one file: the tool that read it and how
// many sessions it gave, or Skipped, why nothing was read from it.
type FileReport struct {
	Path     string `json:"path"`
	Tool     string `json:"tool,omitempty"`
	Sessions int    `json:"sessions"`
	Skipped  string `json:"skipped,omitempty"`
}

// fileGroup is the files read as one import: a single file (content
// detection), a Cline task folder, or an OpenCode storage tree.
type fileGroup struct {
	layout string // "file", "cline", "opencode"
	path   string // the file, the task folder, or the storage folder
	files  []int
}

// ImportFiles imports a set of files at once, as a coding agent or chat app
// keeps them on disk (see groupFiles for the layouts recognised): each
// group is read first, then every session found is added (or grown, for a
// session imported before: only new nodes are added, so importing the same
// folder twice adds nothing). A file that cannot be read is reported in
// Files and its warnings, never fails the others; nothing is added when no
// file gives a session (INVALID_ARGUMENT naming each file's reason).
func (st *Store) ImportFiles(files []ImportFile) (*FilesResult, *Error) {
	res := &FilesResult{Sessions: []FileSession{}, Skipped: []ImportSkipped{}, Warnings: []ImportWarning{}, Files: []FileReport{}}
	for i := range files {
		files[i].Path = cleanPath(files[i].Path)
	}
	groups, skipped := groupFiles(files)
	reports := map[string]*FileReport{}
	for i, f := range files {
		res.Files = append(res.Files, FileReport{Path: f.Path, Skipped: skipped[i]})
	}
	for i := range res.Files {
		reports[res.Files[i].Path] = &res.Files[i]
	}
	var jobs []*ImportJob
	var owners []fileGroup
	for _, g := range groups {
		j, err := st.readGroup(files, g)
		if err != nil {
			for _, k := range g.files {
				reports[files[k].Path].Skipped = err.Message
			}
			res.Warnings = append(res.Warnings, ImportWarning{Message: g.path + ": " + err.Message})
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
		return nil, invalidf("nothing imported: %s", strings.Join(why, "; "))
	}
	for k, j := range jobs {
		g := owners[k]
		r, err := j.Finish()
		if err != nil {
			continue // reading succeeded, so adding cannot fail
		}
		for _, w := range r.Warnings {
			w.Message = g.path + ": " + w.Message
			res.Warnings = append(res.Warnings, w)
		}
		res.Skipped = append(res.Skipped, r.Skipped...)
		for _, s := range r.Sessions {
			if s.Project == "" {
				s.Project = pathProject(g.path)
				st.sessions[s.SessionID].setOrigin(r.Format, s.Project)
			}
			res.Sessions = append(res.Sessions, FileSession{ImportedSession: s, Tool: r.Format, Path: g.path})
		}
		for _, f := range g.files {
			rep := reports[files[f].Path]
			rep.Tool = r.Format
			if f == g.files[0] {
				rep.Sessions = len(r.Sessions)
			}
		}
	}
	return res, nil
}

// readGroup reads one group into a job whose sessions are ready to add: a
// single file through StartImport and its steps, a folder layout through
// its reader.
func (st *Store) readGroup(files []ImportFile, g fileGroup) (*ImportJob, *Error) {
	var convs []formats.Conversation
	var warns []ImportWarning
	for _, k := range g.files {
		// As a request's text is (dispatch's check): bytes that are not
		// UTF-8 would make sessions whose snapshots do not load back.
		data, _ := importEncoding(files[k].Data)
		if !jsonx.ValidUTF8(data) {
			return nil, invalidf("%s is not UTF-8 text (or UTF-16 with its byte order mark); skipped", files[k].Path)
		}
		if g.layout != "file" {
			files[k].Data = data // a single file's import converts (and reports) it itself
		}
	}
	name := g.layout
	switch g.layout {
	case "file":
		j, err := st.startImport(files[g.files[0]].Data, "auto", ImportJobGrowth)
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
		tf := formats.ClineTaskFiles{TaskID: g.path[strings.LastIndexByte(g.path, '/')+1:]}
		for _, k := range g.files {
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
			return nil, invalidf("the task folder has no api_conversation_history.json (what the model saw); skipped")
		}
		c, w := formats.ConvertClineTask(importChecks, tf)
		convs, warns = []formats.Conversation{c}, w
	case "opencode":
		set := make([]formats.File, 0, len(g.files))
		for _, k := range g.files {
			set = append(set, files[k])
		}
		convs, warns = formats.ConvertOpenCode(importChecks, set)
	}
	j := &ImportJob{st: st, data: []byte{'{'}, im: &formats.Importer{Name: name}, readDone: true,
		res: &ImportResult{Format: name, Sessions: []ImportedSession{}, Skipped: []ImportSkipped{}, Warnings: []ImportWarning{}}}
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

// cleanPath returns p with "/" between names, without a leading "./" or "/".
func cleanPath(p string) string {
	p = strings.ReplaceAll(p, "\\", "/")
	for strings.HasPrefix(p, "./") || strings.HasPrefix(p, "/") {
		p = strings.TrimPrefix(strings.TrimPrefix(p, "./"), "/")
	}
	return p
}

// sessionExtensions are the names of files read as single sessions; others
// outside a recognised layout are skipped.
var sessionExtensions = []string{".json", ".jsonl", ".ndjson", ".aider.chat.history.md"}

// groupFiles sorts files into groups by layout: OpenCode's storage tree
// (storage/session|message|part/…, one group), Cline and Roo Code task
// folders (tasks/<id>/…, one group per task), and every other JSON, JSON
// lines or Aider history file alone, read by content detection (Codex
// sessions/YYYY/MM/DD/rollout-*.jsonl, Claude Code projects/<slug>/*.jsonl
// and its sub-agent files, Gemini CLI tmp/<hash>/chats/, Pi
// sessions/--<cwd>--/, exports). skipped[i] says why file i is in no group.
func groupFiles(files []ImportFile) (groups []fileGroup, skipped []string) {
	skipped = make([]string, len(files))
	tasks := map[string]int{} // task folder → its group
	open := -1
	for i, f := range files {
		p := f.Path
		base := p[strings.LastIndexByte(p, '/')+1:]
		if kind, _ := formats.OpenCodeKind(p); kind != "" && (strings.Contains("/"+p, "/storage/") || strings.HasPrefix(base, "ses_") || strings.HasPrefix(base, "msg_") || strings.HasPrefix(base, "prt_")) {
			if open < 0 {
				root := p
				if k := strings.Index("/"+p, "/storage/"); k >= 0 {
					root = p[:k+len("storage")]
				}
				open = len(groups)
				groups = append(groups, fileGroup{layout: "opencode", path: root})
			}
			groups[open].files = append(groups[open].files, i)
			continue
		}
		if dir, ok := clineTaskDir(p); ok {
			switch base {
			case "api_conversation_history.json", "ui_messages.json", "task_metadata.json":
				g, ok := tasks[dir]
				if !ok {
					g = len(groups)
					tasks[dir] = g
					groups = append(groups, fileGroup{layout: "cline", path: dir})
				}
				groups[g].files = append(groups[g].files, i)
			default:
				skipped[i] = "not a conversation file of the task folder; skipped"
			}
			continue
		}
		known := false
		for _, ext := range sessionExtensions {
			known = known || strings.HasSuffix(strings.ToLower(base), ext)
		}
		if !known {
			skipped[i] = "not a session file (JSON, JSON lines or an Aider history); skipped"
			continue
		}
		groups = append(groups, fileGroup{layout: "file", path: p, files: []int{i}})
	}
	return groups, skipped
}

// clineTaskDir returns the folder of a file in tasks/<id>/ (Cline and Roo
// Code), or a lone api_conversation_history.json's folder.
func clineTaskDir(p string) (string, bool) {
	parts := strings.Split(p, "/")
	n := len(parts)
	if n >= 3 && parts[n-3] == "tasks" {
		return strings.Join(parts[:n-1], "/"), true
	}
	if parts[n-1] == "api_conversation_history.json" {
		return strings.Join(parts[:n-1], "/"), true
	}
	return "", false
}

// pathProject returns the project a path names: Claude Code's
// projects/<slug>/ (the cwd with "/" written "-", read back as "/": a "-"
// in a folder name reads as "/" too), Pi's sessions/--<cwd>--/ likewise,
// Gemini CLI's tmp/<hash>/ (the hash), the folder holding an Aider
// .aider.chat.history.md (its repository, as the folder chosen names it);
// "" for others.
func pathProject(p string) string {
	parts := strings.Split(p, "/")
	if n := len(parts); n >= 2 && parts[n-1] == ".aider.chat.history.md" {
		return strings.Join(parts[:n-1], "/")
	}
	for i := len(parts) - 2; i >= 1; i-- {
		switch dir := parts[i]; parts[i-1] {
		case "projects":
			if strings.HasPrefix(dir, "-") {
				return strings.ReplaceAll(dir, "-", "/")
			}
			return dir
		case "sessions":
			if strings.HasPrefix(dir, "--") && strings.HasSuffix(dir, "--") && len(dir) > 4 {
				return "/" + strings.ReplaceAll(dir[2:len(dir)-2], "-", "/")
			}
		case "tmp":
			return dir
		}
	}
	return ""
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
func ParseFileManifest(manifest, data []byte) ([]ImportFile, *Error) {
	entries, err := readManifest(manifest)
	if err != nil {
		return nil, invalidf("the file list must be a JSON array of {path, size}: %s", err.Error())
	}
	files := make([]ImportFile, 0, len(entries))
	pos := 0
	for i, e := range entries {
		if e.Path == nil || e.Size == nil || *e.Size < 0 || *e.Size > len(data)-pos {
			return nil, invalidf("file %d of the list needs a path and a size within the %d bytes given", i, len(data))
		}
		files = append(files, ImportFile{Path: *e.Path, Data: data[pos : pos+*e.Size : pos+*e.Size]})
		pos += *e.Size
	}
	if pos != len(data) {
		return nil, invalidf("the file list's sizes add up to %d bytes, but %d were given", pos, len(data))
	}
	return files, nil
}
