package core

import "github.com/sessiontree/sessiontree/core/internal/views"

// The value of family (views.Family): the sessions forked, cloned or
// imported from one another, each member and each edge.
type (
	Family       = views.Family
	FamilyMember = views.FamilyMember
	FamilyEdge   = views.FamilyEdge
)

// MaxFamilyMembers is the most sessions family lists; MaxMapForks the
// most forks map marks on a session's map.
const (
	MaxFamilyMembers = views.MaxFamilyMembers
	MaxMapForks      = views.MaxMapForks
)
