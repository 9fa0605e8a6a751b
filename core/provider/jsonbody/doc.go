// Package jsonbody makes provider request bodies that carry huge strings (a
// 31 MB prompt, a long tool output) without copying them: the request is
// encoded with a short placeholder in each huge string's place (Taken),
// and the body (Body) is that encoding with each string quoted, with
// json.Marshal's escapes, a piece at a time as the body is read. Its
// length is known before it is sent (Content-Length) and it can be read
// again (a redirect, a retry). encoding/json would hold the string about
// three more times: its quoted copy, its buffer's, Marshal's result.
package jsonbody
