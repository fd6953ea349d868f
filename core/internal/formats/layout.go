package formats

import "strings"

// The layouts of the folders the tools keep their histories in, as paths
// alone: which files of a chosen folder are read together (an OpenCode
// storage tree, a Cline or Roo Code task folder), which alone, which are
// skipped, and the project a path names.

// FileGroup is the files read as one import: a single file (content
// detection), a Cline task folder, or an OpenCode storage tree.
type FileGroup struct {
	Layout string // "file", "cline", "opencode"
	Path   string // the file, the task folder, or the storage folder
	Files  []int
}

// CleanPath returns p with "/" between names, without a leading "./" or "/".
func CleanPath(p string) string {
	p = strings.ReplaceAll(p, "\\", "/")
	for strings.HasPrefix(p, "./") || strings.HasPrefix(p, "/") {
		p = strings.TrimPrefix(strings.TrimPrefix(p, "./"), "/")
	}
	return p
}

// sessionExtensions are the names of files read as single sessions; others
// outside a recognised layout are skipped.
var sessionExtensions = []string{".json", ".jsonl", ".ndjson", ".aider.chat.history.md"}

// GroupFiles sorts files into groups by layout: OpenCode's storage tree
// (storage/session|message|part/…, one group), Cline and Roo Code task
// folders (tasks/<id>/…, one group per task), and every other JSON, JSON
// lines or Aider history file alone, read by content detection (Codex
// sessions/YYYY/MM/DD/rollout-*.jsonl, Claude Code projects/<slug>/*.jsonl
// and its sub-agent files, Gemini CLI tmp/<hash>/chats/, Pi
// sessions/--<cwd>--/, exports). skipped[i] says why file i is in no group.
func GroupFiles(files []File) (groups []FileGroup, skipped []string) {
	skipped = make([]string, len(files))
	tasks := map[string]int{} // task folder → its group
	open := -1
	for i, f := range files {
		p := f.Path
		base := p[strings.LastIndexByte(p, '/')+1:]
		if dir := junkFolder(p); dir != "" {
			skipped[i] = "inside " + dir + " (" + junkFolders(dir) + "), not a session file; skipped"
			continue
		}
		if strings.HasSuffix(base, ".meta.json") && strings.HasPrefix(base, "agent-") {
			skipped[i] = "a Claude Code sub-agent's metadata (its type), not a session file; skipped"
			continue
		}
		if kind, _ := OpenCodeKind(p); kind != "" && (strings.Contains("/"+p, "/storage/") || strings.HasPrefix(base, "ses_") || strings.HasPrefix(base, "msg_") || strings.HasPrefix(base, "prt_")) {
			if open < 0 {
				root := p
				if k := strings.Index("/"+p, "/storage/"); k >= 0 {
					root = p[:k+len("storage")]
				}
				open = len(groups)
				groups = append(groups, FileGroup{Layout: "opencode", Path: root})
			}
			groups[open].Files = append(groups[open].Files, i)
			continue
		}
		if dir, ok := clineTaskDir(p); ok {
			switch base {
			case "api_conversation_history.json", "ui_messages.json", "task_metadata.json":
				g, ok := tasks[dir]
				if !ok {
					g = len(groups)
					tasks[dir] = g
					groups = append(groups, FileGroup{Layout: "cline", Path: dir})
				}
				groups[g].Files = append(groups[g].Files, i)
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
		groups = append(groups, FileGroup{Layout: "file", Path: p, Files: []int{i}})
	}
	return groups, skipped
}

// junkFolders returns what the folder name is when it is one that a
// folder of histories may hold and that never holds one (a repository's
// packages and version control), "" for any other: their files are left
// out unread (a project's node_modules alone is thousands of package.json
// files). A switch, not a map: a map variable is built by code that V8
// compiles and runs at every start of the wasm program.
func junkFolders(name string) string {
	switch name {
	case "node_modules":
		return "packages"
	case ".git":
		return "version control"
	case ".venv":
		return "a Python environment"
	case "__pycache__":
		return "compiled Python"
	}
	return ""
}

// junkFolder returns the first folder of path p that is one of
// junkFolders, "" for none.
func junkFolder(p string) string {
	for rest := p; ; {
		name, more, found := strings.Cut(rest, "/")
		if !found {
			return "" // the file's own name
		}
		if junkFolders(name) != "" {
			return name
		}
		rest = more
	}
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

// PathProject returns the project a path names: Claude Code's
// projects/<slug>/ (the cwd with "/" written "-", read back as "/": a "-"
// in a folder name reads as "/" too), Pi's sessions/--<cwd>--/ likewise,
// Gemini CLI's tmp/<hash>/ (the hash), the folder holding an Aider
// .aider.chat.history.md (its repository, as the folder chosen names it);
// "" for others.
func PathProject(p string) string {
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
