package toolcall

// The parameter schemas: compiling a tool's schema and checking call
// arguments against it.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"unicode/utf8"
)

// Schema is a compiled tool parameter schema: the subset of JSON Schema the
// declared tools use (object, properties, required, additionalProperties,
// type string/integer/number/boolean/object/array, enum, minimum, maximum,
// maxLength counted in code points).
type Schema struct {
	root *node
}

// node is one compiled (sub)schema. Keywords outside the subset
// (description, title, default, ...) are ignored.
type node struct {
	types      []string // empty: any type
	enum       []any    // decoded values; nil: no enum
	minimum    *float64
	maximum    *float64
	maxLength  int // -1: none
	properties map[string]*node
	required   []string
	noExtra    bool // additionalProperties: false
	items      *node
}

type rawSchema struct {
	Type                 json.RawMessage            `json:"type"`
	Enum                 []json.RawMessage          `json:"enum"`
	Minimum              *float64                   `json:"minimum"`
	Maximum              *float64                   `json:"maximum"`
	MaxLength            *int                       `json:"maxLength"`
	Properties           map[string]json.RawMessage `json:"properties"`
	Required             []string                   `json:"required"`
	AdditionalProperties json.RawMessage            `json:"additionalProperties"`
	Items                json.RawMessage            `json:"items"`
}

var knownTypes = map[string]bool{
	"string": true, "integer": true, "number": true, "boolean": true,
	"object": true, "array": true, "null": true,
}

// Compile parses a tool's parameters schema. The root must describe an
// object (type "object" or no type). An empty raw schema accepts any object.
func Compile(raw json.RawMessage) (*Schema, error) {
	if len(bytes.TrimSpace(raw)) == 0 {
		return &Schema{root: &node{types: []string{"object"}, maxLength: -1}}, nil
	}
	n, err := compileNode(raw, "parameters")
	if err != nil {
		return nil, err
	}
	if len(n.types) == 0 {
		n.types = []string{"object"}
	}
	if len(n.types) != 1 || n.types[0] != "object" {
		return nil, errors.New("toolcall: parameters: root schema must be of type object")
	}
	return &Schema{root: n}, nil
}

func compileNode(raw json.RawMessage, path string) (*node, error) {
	var rs rawSchema
	if err := json.Unmarshal(raw, &rs); err != nil {
		return nil, fmt.Errorf("toolcall: %s: %w", path, err)
	}
	n := &node{maxLength: -1, minimum: rs.Minimum, maximum: rs.Maximum, required: rs.Required}
	if len(rs.Type) > 0 {
		var one string
		if err := json.Unmarshal(rs.Type, &one); err == nil {
			n.types = []string{one}
		} else if err := json.Unmarshal(rs.Type, &n.types); err != nil {
			return nil, fmt.Errorf("toolcall: %s: type must be a string or a list of strings", path)
		}
		for _, t := range n.types {
			if !knownTypes[t] {
				return nil, fmt.Errorf("toolcall: %s: unsupported type %q", path, t)
			}
		}
	}
	if rs.Enum != nil {
		n.enum = make([]any, 0, len(rs.Enum))
		for _, e := range rs.Enum {
			var v any
			if err := json.Unmarshal(e, &v); err != nil {
				return nil, fmt.Errorf("toolcall: %s: enum: %w", path, err)
			}
			n.enum = append(n.enum, v)
		}
	}
	if rs.MaxLength != nil {
		if *rs.MaxLength < 0 {
			return nil, fmt.Errorf("toolcall: %s: negative maxLength", path)
		}
		n.maxLength = *rs.MaxLength
	}
	if len(rs.Properties) > 0 {
		n.properties = make(map[string]*node, len(rs.Properties))
		for name, p := range rs.Properties {
			c, err := compileNode(p, path+"."+name)
			if err != nil {
				return nil, err
			}
			n.properties[name] = c
		}
	}
	if ap := bytes.TrimSpace(rs.AdditionalProperties); len(ap) > 0 {
		// Only the boolean form is in the subset; a schema-valued
		// additionalProperties is read as "allowed".
		n.noExtra = string(ap) == "false"
	}
	if len(rs.Items) > 0 {
		c, err := compileNode(rs.Items, path+"[]")
		if err != nil {
			return nil, err
		}
		n.items = c
	}
	return n, nil
}

// Check validates call arguments. It returns "" when they are acceptable,
// else the result text to answer at once: MissingField, InvalidField (a
// wrong type, a value outside enum/range/length, an undeclared field when
// additionalProperties is false). args must be a JSON object; anything else
// is InvalidField("arguments"). Empty args read as {}, since a backend may
// leave the arguments of a call without parameters out.
//
// Missing required fields are reported before invalid ones; nested fields
// are named by their dotted path. An integer is a JSON number written
// without fraction or exponent that fits in 64 bits, so that handlers can
// decode it into an int.
func (s *Schema) Check(args json.RawMessage) string {
	args = bytes.TrimSpace(args)
	if len(args) == 0 {
		args = json.RawMessage("{}")
	}
	if args[0] != '{' || !json.Valid(args) {
		return InvalidField("arguments")
	}
	return s.root.check(args, "")
}

func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

var intLiteral = regexp.MustCompile(`^-?(0|[1-9][0-9]*)$`)

// check validates a value known to be valid JSON; path names it in errors.
func (n *node) check(v json.RawMessage, path string) string {
	name := path
	if name == "" {
		name = "arguments"
	}
	bad := InvalidField(name)
	kind := jsonKind(v)
	if !n.typeAllows(kind) || !n.enumAllows(v) {
		return bad
	}
	switch kind {
	case "integer", "number":
		if !n.numberFits(v, kind) {
			return bad
		}
	case "string":
		if !n.stringFits(v) {
			return bad
		}
	case "object":
		return n.checkObject(v, path, bad)
	case "array":
		return n.checkArray(v, name, bad)
	}
	return ""
}

// typeAllows reports whether the schema's types, if any, take a value of
// kind; an integer is a number.
func (n *node) typeAllows(kind string) bool {
	if len(n.types) == 0 {
		return true
	}
	for _, t := range n.types {
		if t == kind || (t == "number" && kind == "integer") {
			return true
		}
	}
	return false
}

// enumAllows reports whether v is one of the schema's enum values, if it
// has an enum.
func (n *node) enumAllows(v json.RawMessage) bool {
	if n.enum == nil {
		return true
	}
	var dv any
	if json.Unmarshal(v, &dv) != nil {
		return false
	}
	for _, e := range n.enum {
		if reflect.DeepEqual(e, dv) {
			return true
		}
	}
	return false
}

// numberFits reports whether the number v is finite, an int64 where the
// schema asks for an integer, and within its minimum and maximum.
func (n *node) numberFits(v json.RawMessage, kind string) bool {
	if kind == "integer" {
		if _, err := strconv.ParseInt(string(v), 10, 64); err != nil && containsType(n.types, "integer") {
			return false
		}
	}
	f, err := strconv.ParseFloat(string(v), 64)
	if err != nil || math.IsInf(f, 0) {
		return false
	}
	if n.minimum != nil && f < *n.minimum {
		return false
	}
	if n.maximum != nil && f > *n.maximum {
		return false
	}
	return true
}

// stringFits reports whether the string v is within the schema's
// maxLength, in characters.
func (n *node) stringFits(v json.RawMessage) bool {
	if n.maxLength < 0 {
		return true
	}
	var s string
	return json.Unmarshal(v, &s) == nil && utf8.RuneCountInString(s) <= n.maxLength
}

// checkObject checks that the object v has its required fields, no field
// the schema refuses, and fields that each pass their own schema, in name
// order so the error named is always the same one.
func (n *node) checkObject(v json.RawMessage, path, bad string) string {
	var fields map[string]json.RawMessage
	if json.Unmarshal(v, &fields) != nil {
		return bad
	}
	for _, r := range n.required {
		if _, ok := fields[r]; !ok {
			return MissingField(join(path, r))
		}
	}
	names := make([]string, 0, len(fields))
	for k := range fields {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		p, ok := n.properties[k]
		if !ok {
			if n.noExtra {
				return InvalidField(join(path, k))
			}
			continue
		}
		if msg := p.check(fields[k], join(path, k)); msg != "" {
			return msg
		}
	}
	return ""
}

// checkArray checks each element of the array v against the schema's
// items, if it has them; an element's error names the array.
func (n *node) checkArray(v json.RawMessage, name, bad string) string {
	if n.items == nil {
		return ""
	}
	var elems []json.RawMessage
	if json.Unmarshal(v, &elems) != nil {
		return bad
	}
	for _, e := range elems {
		if msg := n.items.check(e, name); msg != "" {
			return msg
		}
	}
	return ""
}

func containsType(types []string, t string) bool {
	for _, x := range types {
		if x == t {
			return true
		}
	}
	return false
}

// jsonKind names the JSON Schema type of a valid JSON value; a number is
// "integer" when written as a plain integer literal.
func jsonKind(v json.RawMessage) string {
	switch v[0] {
	case '{':
		return "object"
	case '[':
		return "array"
	case '"':
		return "string"
	case 't', 'f':
		return "boolean"
	case 'n':
		return "null"
	}
	if intLiteral.Match(v) {
		return "integer"
	}
	return "number"
}
