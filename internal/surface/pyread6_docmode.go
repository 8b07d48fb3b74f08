package surface

import "strings"

// Which framework's docstring rule a package's tools follow (pyDocMode)
// is read from its imports. A package written against the standalone
// fastmcp often imports a type from the official SDK's mcp.server.fastmcp
// as well (its Context, Image, a message class of its prompts, an
// exception): such an import registers nothing, so it does not make the
// package's servers the SDK's. pyImportsSDKRegistrar says whether one
// `from mcp.server.fastmcp... import ...` statement may bring a name that
// registers (the FastMCP class, Tool or Prompt with their from_function,
// the module itself, a wildcard, or any name not known to be inert); only
// such an import counts as the official SDK. The inert names are the
// SDK's own exports of these types, read exactly: an alias of one is
// still that type, and every other name is taken as a registrar (fail
// closed: the package then keeps the SDK's rule, __doc__).

// pySDKInertNames are names mcp.server.fastmcp and its submodules export
// that register no tool, prompt or resource.
var pySDKInertNames = map[string]bool{
	"Context":           true, // the request context a tool takes as a parameter
	"Image":             true, // return types (mcp.server.fastmcp, .utilities.types)
	"Audio":             true,
	"UserMessage":       true, // prompt message classes (mcp.server.fastmcp.prompts.base)
	"AssistantMessage":  true,
	"Message":           true,
	"get_logger":        true, // mcp.server.fastmcp.utilities.logging
	"configure_logging": true,
	"FastMCPError":      true, // mcp.server.fastmcp.exceptions
	"ToolError":         true,
	"ResourceError":     true,
	"ValidationError":   true,
	"InvalidSignature":  true,
}

// pyImportsSDKRegistrar reads one import-from statement whose module is
// mcp.server.fastmcp or one of its submodules.
func pyImportsSDKRegistrar(f *file, n nid) bool {
	names := f.fieldAll(n, "name")
	if len(names) == 0 {
		return true // a wildcard, or a statement the parser could not split
	}
	for _, c := range names {
		var id string
		switch f.pk(c) {
		case pkDottedName:
			id = f.text(c)
		case pkAliasedImport:
			id = f.text(f.field(c, "name"))
		default:
			return true
		}
		if strings.Contains(id, ".") || !pySDKInertNames[id] {
			return true
		}
	}
	return false
}

// The SDK's server reached by the other spellings of its import, each of
// which counts as the SDK whatever else the package imports, since an
// inert import from mcp.server.fastmcp no longer does: `import
// mcp.server.fastmcp` (or a submodule, also aliased), and `from mcp.server
// import FastMCP` (the SDK re-exports its FastMCP there; SDK 2's MCPServer
// likewise, from mcp.server or mcp.server.mcpserver).

// pyImportStatementSDK reads one name of an `import` statement.
func pyImportStatementSDK(f *file, c nid) bool {
	if f.pk(c) == pkAliasedImport {
		c = f.field(c, "name")
	}
	t := f.text(c)
	for _, m := range [...]string{"mcp.server.fastmcp", "mcp.server.mcpserver"} {
		if t == m || strings.HasPrefix(t, m+".") {
			return true
		}
	}
	return false
}

// pyImportFromSDKServer reads an import-from statement of module mod.
func pyImportFromSDKServer(f *file, n nid, mod string) bool {
	switch {
	case mod == "mcp.server.mcpserver" || strings.HasPrefix(mod, "mcp.server.mcpserver."):
		return true
	case mod != "mcp.server":
		return false
	}
	names := f.fieldAll(n, "name")
	if len(names) == 0 {
		return true // a wildcard, or a statement the parser could not split
	}
	for _, c := range names {
		if f.pk(c) == pkAliasedImport {
			c = f.field(c, "name")
		}
		switch f.text(c) {
		case "FastMCP", "MCPServer", "fastmcp", "mcpserver":
			return true
		}
	}
	return false
}
