package literal

// Encodings lists every encoding Decode accepts.
var Encodings = []string{JSString, JSTemplate, PyString, PyRaw, PyFString, PyRawFString, JSON, JSNumber, JSTemplateRaw}
