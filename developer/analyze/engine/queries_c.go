package engine

// C and C++ are not parsed by goose (it counts their lines); these queries
// follow its conventions for the other languages. A "func.decl" capture is
// a function_definition's declarator, named by declaratorName, because the
// name sits at varying depth (`*f(void)`, `ns::Task::run()`, `~Task()`).
// Only definitions count as functions, not prototypes.

var cFunctionKinds = []string{"function_definition"}

const cElements = `
(function_definition declarator: (_) @func.decl)
(struct_specifier name: (type_identifier) @struct body: (_))
(union_specifier name: (type_identifier) @struct body: (_))
(enum_specifier name: (type_identifier) @class body: (_))
(type_definition type: (struct_specifier !name body: (_)) declarator: (type_identifier) @struct)
(preproc_include) @import`

const cCalls = `
(call_expression function: (identifier) @function.call)
(call_expression function: (field_expression field: (field_identifier) @method.call))`

const cppElements = cElements + `
(class_specifier name: (type_identifier) @class body: (_))`

const cppCalls = cCalls + `
(call_expression function: (qualified_identifier name: (identifier) @scoped.call))
(call_expression function: (template_function name: (identifier) @function.call))
(new_expression type: (type_identifier) @constructor.call)`
