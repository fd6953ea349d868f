// Package importer drives an import from bytes to sessions: the format
// detected (package formats reads each export into conversations), each
// conversation planned as a tree (package importplan) and built into a
// session, merged into the session imported before when there is one (only
// new nodes are added, so importing a file twice adds nothing), and added
// to the store. Imports run as jobs in steps (Job, Imports for data
// sent in slices), and folders of files by layout (ImportFiles).
package importer
