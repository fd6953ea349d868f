// Package command is the text commands of chat frontends (SPEC.md
// "Commands"): a line such as `/tree jump n0002` parsed against the
// command table (Parse) and run on the store's typed operations (Run),
// never through JSON. Each answers a Result: the text for display and the
// value of the operation it ran.
package command
