package engine

// langSpec is everything needed to parse one language: the grammar, goose's
// element and call queries, and how to name the function that encloses a
// call (goose analyze/languages/mod.rs).
type langSpec struct {
	// grammar names the tree-sitter grammar (a key of grammars, which only
	// cgo builds have).
	grammar string
	// elements captures @func/@const (functions), @class/@struct (classes)
	// and @import.
	elements string
	// calls captures @function.call, @method.call, @scoped.call,
	// @macro.call, @constructor.call and @identifier.reference.
	calls string
	// functionKinds are node types that name the caller of a call inside them.
	functionKinds []string
	// rustImpl makes an impl_item name its calls "impl Type", as goose does.
	rustImpl bool
	// declarators makes a C/C++ function_definition take its name from its
	// declarator (`f` in `int *f(void)`), as the name is not a child there.
	declarators bool
}

// nameKinds are the child node types whose text names a function.
var nameKinds = []string{"identifier", "field_identifier", "property_identifier"}

// specs holds the parsed languages. Languages goose recognises but does not
// parse (json, markdown, …) are absent and get line counts only; so is
// swift, for which no Go module of a grammar for the official bindings is
// available here.
var specs = map[string]*langSpec{
	"go": {
		grammar: "go",
		elements: `
(function_declaration name: (identifier) @func)
(method_declaration name: (field_identifier) @func)
(type_declaration (type_spec name: (type_identifier) @struct))
(const_declaration (const_spec name: (identifier) @const))
(import_declaration) @import`,
		calls: `
(call_expression function: (identifier) @function.call)
(call_expression function: (selector_expression field: (field_identifier) @method.call))
(argument_list (identifier) @identifier.reference)
(binary_expression left: (identifier) @identifier.reference)
(binary_expression right: (identifier) @identifier.reference)
(unary_expression operand: (identifier) @identifier.reference)
(return_statement (expression_list (identifier) @identifier.reference))
(assignment_statement right: (expression_list (identifier) @identifier.reference))`,
		functionKinds: []string{"function_declaration", "method_declaration"},
	},
	"python": {
		grammar: "python",
		elements: `
(function_definition name: (identifier) @func)
(class_definition name: (identifier) @class)
(import_statement) @import
(import_from_statement) @import`,
		calls: `
(call function: (identifier) @function.call)
(call function: (attribute attribute: (identifier) @method.call))`,
		functionKinds: []string{"function_definition"},
	},
	"rust": {
		grammar: "rust",
		elements: `
(function_item name: (identifier) @func)
(impl_item type: (type_identifier) @class)
(struct_item name: (type_identifier) @struct)
(use_declaration) @import`,
		calls: `
(call_expression function: (identifier) @function.call)
(call_expression function: (field_expression field: (field_identifier) @method.call))
(call_expression function: (scoped_identifier) @scoped.call)
(macro_invocation macro: (identifier) @macro.call)`,
		functionKinds: []string{"function_item", "impl_item"},
		rustImpl:      true,
	},
	// goose's JavaScript query lists only function and class declarations;
	// methods and arrow functions bound to names are added here so classes
	// and modern modules are not shown as empty.
	"javascript": {
		grammar: "javascript",
		elements: `
(function_declaration name: (identifier) @func)
(method_definition name: (property_identifier) @func)
(variable_declarator name: (identifier) @func value: (arrow_function))
(class_declaration name: (identifier) @class)
(import_statement) @import`,
		calls:         jsCalls,
		functionKinds: []string{"function_declaration", "method_definition", "arrow_function"},
	},
	// TypeScript gets its own grammar (goose parses it with the JavaScript
	// grammar, which fails on type annotations); class names are
	// type_identifiers there.
	"typescript": {
		grammar:       "typescript",
		elements:      tsElements,
		calls:         jsCalls,
		functionKinds: []string{"function_declaration", "method_definition", "arrow_function"},
	},
	// .tsx files (which goose does not list) use TypeScript's queries with
	// the TSX grammar.
	"tsx": {
		grammar:       "tsx",
		elements:      tsElements,
		calls:         jsCalls,
		functionKinds: []string{"function_declaration", "method_definition", "arrow_function"},
	},
	"java": {
		grammar: "java",
		elements: `
(method_declaration name: (identifier) @func)
(class_declaration name: (identifier) @class)
(import_declaration) @import`,
		calls: `
(method_invocation name: (identifier) @method.call)
(object_creation_expression type: (type_identifier) @constructor.call)`,
		functionKinds: []string{"method_declaration", "constructor_declaration"},
	},
	// goose's Kotlin queries (languages/kotlin.rs) were written for an older
	// grammar; in tree-sitter-kotlin 1.x a name is an identifier field,
	// an import is (import) and obj.method() has no navigation_suffix. The
	// anchor picks the method, not the receiver, of a navigation.
	"kotlin": {
		grammar: "kotlin",
		elements: `
(function_declaration name: (identifier) @func)
(class_declaration name: (identifier) @class)
(object_declaration name: (identifier) @class)
(import) @import`,
		calls: `
(call_expression (identifier) @function.call)
(call_expression (navigation_expression (identifier) @method.call .))`,
		functionKinds: []string{"function_declaration", "class_body"},
	},
	"c":   {grammar: "c", elements: cElements, calls: cCalls, functionKinds: cFunctionKinds, declarators: true},
	"cpp": {grammar: "cpp", elements: cppElements, calls: cppCalls, functionKinds: cFunctionKinds, declarators: true},
	// The six `call` patterns with #eq? (one per macro) are two with #any-of?:
	// the same captures, and each pattern costs ~13 ms to compile, which
	// every helper process that meets Ruby pays (59 → 24 ms).
	"ruby": {
		grammar: "ruby",
		elements: `
(method name: (identifier) @func)
(class name: (constant) @class)
(module name: (constant) @class)
(call method: (identifier) @func (#any-of? @func "attr_accessor" "attr_reader" "attr_writer"))
(call method: (identifier) @import (#any-of? @import "require" "require_relative" "load"))`,
		calls: `
(call method: (identifier) @method.call)
(call receiver: (constant) @function.call)`,
		functionKinds: []string{"method", "singleton_method"},
	},
}

const tsElements = `
(function_declaration name: (identifier) @func)
(method_definition name: (property_identifier) @func)
(variable_declarator name: (identifier) @func value: (arrow_function))
(class_declaration name: (type_identifier) @class)
(interface_declaration name: (type_identifier) @class)
(import_statement) @import`

const jsCalls = `
(call_expression function: (identifier) @function.call)
(call_expression function: (member_expression property: (property_identifier) @method.call))
(new_expression constructor: (identifier) @constructor.call)`
