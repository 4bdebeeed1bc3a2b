package pet

import (
	"slices"
)

type idSet struct {
	max   int
	ids   map[string]bool
	order []string
}

func newIDSet(max int) *idSet { return &idSet{max: max, ids: make(map[string]bool)} }

func (s *idSet) has(id string) bool { return s.ids[id] }

func (s *idSet) add(id string) {
	if s.ids[id] {
		return
	}
	s.ids[id] = true
	s.order = append(s.order, id)
	for len(s.order) > s.max {
		delete(s.ids, s.order[0])
		s.order = s.order[1:]
	}
}

func (s *idSet) remove(id string) {
	if !s.ids[id] {
		return
	}
	delete(s.ids, id)
	s.order = slices.DeleteFunc(s.order, func(x string) bool { return x == id })
}
