package core

import "github.com/sessiontree/sessiontree/core/internal/command"

// CommandResult is the value of the command operation: the command, its
// text for display, the value of the operation it ran and, for /fork, the
// draft (command.Result).
type CommandResult = command.Result

// UsageLine returns every text command's usage joined by " | ".
func UsageLine() string { return command.UsageLine() }
