package surface

import (
	"sort"
	"strings"
	"testing"

	"github.com/attestari/attestari/internal/vocab"
)

const fastHead = "from mcp.server.fastmcp import FastMCP, Context\nfrom pydantic import BaseModel, Field, ConfigDict\nfrom typing import Annotated, Optional, Literal\nfrom enum import Enum\nmcp = FastMCP('s')\n"

// pySchemaCase is one form of a Python tool's parameter texts: the texts
// read (name=text, sorted), or the reason a (schema) record names when the
// form is not read.
type pySchemaCase struct {
	name   string
	src    string
	files  map[string]string
	read   []string
	unread string
	head   string // the module's head when not fastHead
}

const standaloneHead = "from fastmcp import FastMCP, Context\nfrom pydantic import BaseModel, Field\nfrom typing import Annotated, Optional\nmcp = FastMCP('s')\n"

var pySchemaCases = []pySchemaCase{
	// A bare string in Annotated metadata: pydantic and the SDK's FastMCP
	// send nothing for it; the standalone fastmcp (2.11 on) makes
	// Annotated[T, "text"] (one metadata item) Field(description="text").
	{name: "SDK: Annotated bare string is no text", read: []string{"b=B."},
		src: "@mcp.tool()\ndef t(a: Annotated[str, 'Bare.'], b: Annotated[int, 'x', Field(description='B.')] = 1) -> str:\n    return a\n"},
	{name: "standalone fastmcp: Annotated[T, text] is a text", head: standaloneHead, read: []string{"a=Bare.", "b=B.", "c=Alias."},
		src: "Q = Annotated[str, 'Alias.']\n@mcp.tool()\ndef t(a: Annotated[str, 'Bare.'], b: Annotated[int, 'x', Field(description='B.')] = 1, c: Q = '') -> str:\n    return a\n"},
	// Read.
	{name: "plain types carry no text", read: nil,
		src: "@mcp.tool()\ndef t(a: str, b: int = 3, c: Optional[list[str]] = None, d: Literal['x', 'y'] = 'x', e: dict[str, int] | None = None, ctx: Context = None) -> str:\n    return a\n"},
	{name: "Field default and Annotated Field", read: []string{"a=The a.", "b=The b."},
		src: "@mcp.tool()\ndef t(a: str = Field(description='The a.'), b: Annotated[int, Field(description='The b.', ge=0)] = 1) -> str:\n    return a\n"},
	{name: "Field description from a constant", read: []string{"a=Shared text."},
		src: "TEXT = 'Shared text.'\n@mcp.tool()\ndef t(a: str = Field(description=TEXT)) -> str:\n    return a\n"},
	{name: "model of the package: docstring cleaned, fields, nested, list", read: []string{"q.inner.x=The x.", "q.inner=Inner field.", "q.term=Search term.", "q=A query.\n\nSecond line."},
		src: "class Inner(BaseModel):\n    x: int = Field(description='The x.')\n" +
			"class Q(BaseModel):\n    \"\"\"A query.\n\n    Second line.\n    \"\"\"\n    term: str = Field(..., description='Search term.')\n    inner: Optional[Inner] = Field(None, description='Inner field.')\n    items: list[Inner] = []\n    model_config = ConfigDict(extra='forbid')\n" +
			"@mcp.tool()\ndef t(q: Q) -> str:\n    return ''\n"},
	{name: "model without a docstring, base's fields", read: []string{"q.a=From the base."},
		src: "class Base(BaseModel):\n    \"\"\"Not the subclass's.\"\"\"\n    a: str = Field(description='From the base.')\nclass Q(Base):\n    b: int = 0\n" +
			"@mcp.tool()\ndef t(q: Q) -> str:\n    return ''\n"},
	{name: "Enum docstring", read: []string{"mode=How to run."},
		src: "class Mode(str, Enum):\n    \"\"\"How to run.\"\"\"\n    A = 'a'\n@mcp.tool()\ndef t(mode: Mode = Mode.A) -> str:\n    return ''\n"},
	{name: "model in another module of the package", read: []string{"q=Remote model."},
		files: map[string]string{"p/models.py": "from pydantic import BaseModel\nclass Q(BaseModel):\n    'Remote model.'\n    a: int\n"},
		src:   "from .models import Q\n@mcp.tool()\ndef t(q: Q) -> str:\n    return ''\n"},
	{name: "a model naming itself is read once; a forward reference is not read", read: []string{"n.kids=Children.", "n=A node."},
		src: "class N(BaseModel):\n    'A node.'\n    kids: list['N'] = Field(default_factory=list, description='Children.')\n" +
			"@mcp.tool()\ndef t(n: N) -> str:\n    return ''\n", unread: "forward reference"},
	{name: "an Annotated alias", read: []string{"a=Alias text."},
		src: "Q = Annotated[str, Field(description='Alias text.')]\n@mcp.tool()\ndef t(a: Q) -> str:\n    return ''\n"},
	{name: "an Annotated alias imported from another module, validators", read: []string{"a=Imported alias."},
		files: map[string]string{"p/types.py": "from typing import Annotated\nfrom pydantic import Field, BeforeValidator\nQ = Annotated[str, BeforeValidator(str.strip), Field(description='Imported alias.')]\n"},
		src:   "from .types import Q\n@mcp.tool()\ndef t(a: Q) -> str:\n    return ''\n"},
	{name: "a model's nested class named in its body", read: []string{"q.inner.x=Nested."},
		src: "class Q(BaseModel):\n    class Inner(BaseModel):\n        x: int = Field(description='Nested.')\n    inner: Inner\n@mcp.tool()\ndef t(q: Q) -> str:\n    return ''\n"},
	{name: "a Field bound to a module-level name, imported", read: []string{"a=Shared field.", "b=Shared field."},
		files: map[string]string{"p/fields.py": "from pydantic import Field\nF = Field(None, description='Shared field.')\n"},
		src:   "from .fields import F\n@mcp.tool()\ndef t(a: str = F, b: str = F) -> str:\n    return ''\n"},
	{name: "json_schema_extra dict read as a schema", read: []string{"a=d", "a[]=Each item."},
		src: "@mcp.tool()\ndef t(a: list = Field(description='d', json_schema_extra={'items': {'type': 'string', 'description': 'Each item.'}, 'example': ['x']})) -> str:\n    return ''\n"},
	{name: "model class keywords that are settings", read: []string{"q=Frozen."},
		src: "class Q(BaseModel, frozen=True):\n    'Frozen.'\n    a: int\n@mcp.tool()\ndef t(q: Q) -> str:\n    return ''\n"},
	{name: "a Field bound in the registering function", read: []string{"a=Local field."},
		src: "def register(m):\n    fa = Field(default={}, description='Local field.')\n    @m.tool()\n    def t(a: dict = fa) -> str:\n        return ''\nregister(mcp)\n"},
	{name: "a class nested in a class, named through it; WithJsonSchema", read: []string{"b.x=Deep.", "n=Minutes."},
		src: "from pydantic import WithJsonSchema\nclass Outer(BaseModel):\n    class Inner(BaseModel):\n        x: int = Field(description='Deep.')\n@mcp.tool()\ndef t(b: Outer.Inner, n: Annotated[int, Field(description='Minutes.'), WithJsonSchema({'type': 'integer'})] = 1, s: str = ','.join(['a', 'b'])) -> str:\n    return ''\n"},
	// Recorded unreadable.
	{name: "a type of another package", unread: "another package or module (other.Thing)",
		src: "from other import Thing\n@mcp.tool()\ndef t(a: Thing) -> str:\n    return ''\n"},
	{name: "negative: an alias bound twice", unread: "type Q not read",
		src: "Q = Annotated[str, Field(description='One.')]\nQ = Annotated[str, Field(description='Two.')]\n@mcp.tool()\ndef t(a: Q) -> str:\n    return ''\n"},
	{name: "negative: a Field bound to a name assigned twice", unread: "default value not read",
		src: "D = Field(description='One.')\nD = Field(description='Two.')\n@mcp.tool()\ndef t(a: str = D) -> str:\n    return ''\n"},
	{name: "negative: a default built by another package", unread: "default value not read",
		src: "import lib\n@mcp.tool()\ndef t(a: str = lib.DEFAULT_FIELD) -> str:\n    return ''\n"},
	{name: "negative: json_schema_extra as a function", unread: "schema not resolved to a dict",
		src: "def extra(s):\n    s['description'] = 'x'\n@mcp.tool()\ndef t(a: str = Field(json_schema_extra=extra)) -> str:\n    return ''\n"},
	{name: "Field json_schema_extra with a computed keyword", unread: "schema keyword x not read", read: []string{"a=d"},
		src: "import lib\n@mcp.tool()\ndef t(a: str = Field(description='d', json_schema_extra={'x': lib.v()})) -> str:\n    return a\n"},
	{name: "Field title not a literal", unread: "Field's title not a literal",
		src: "import lib\n@mcp.tool()\ndef t(a: str = Field(title=lib.title())) -> str:\n    return a\n"},
	{name: "use_attribute_docstrings", unread: "model config use_attribute_docstrings not read",
		src: "class Q(BaseModel):\n    model_config = ConfigDict(use_attribute_docstrings=True)\n    a: str\n    '''Attribute text.'''\n@mcp.tool()\ndef t(q: Q) -> str:\n    return ''\n"},
	{name: "a model that rewrites its schema", unread: "rewrites the schema",
		src: "class Q(BaseModel):\n    a: str\n    @classmethod\n    def __get_pydantic_json_schema__(cls, cs, h):\n        return {'description': 'x'}\n@mcp.tool()\ndef t(q: Q) -> str:\n    return ''\n"},
	{name: "a dataclass", unread: "is not read as a pydantic model",
		src: "from dataclasses import dataclass\n@dataclass\nclass D:\n    'Doc.'\n    a: int\n@mcp.tool()\ndef t(d: D) -> str:\n    return ''\n"},
	{name: "Annotated metadata of another kind", unread: "Annotated metadata lib.Doc not read",
		src: "import lib\n@mcp.tool()\ndef t(a: Annotated[str, lib.Doc('x')]) -> str:\n    return a\n"},
	{name: "a default built by a call of another package", unread: "default value lib.make(...) not read",
		src: "import lib\n@mcp.tool()\ndef t(a: int = lib.make()) -> str:\n    return ''\n"},
	{name: "a default built by a package function returning a Field", unread: "default value make(...) not read",
		src: "def make():\n    return Field(description='Hidden.')\n@mcp.tool()\ndef t(a: int = make()) -> str:\n    return ''\n"},
	{name: "low-level: model_json_schema of a package model", read: []string{"(schema)=Root doc.", "a=Field a."},
		src: "from mcp.server import Server\nfrom mcp.types import Tool\nclass M(BaseModel):\n    'Root doc.'\n    a: str = Field(description='Field a.')\nserver = Server('s')\n@server.list_tools()\nasync def lt():\n    return [Tool(name='t', description='d', inputSchema=M.model_json_schema())]\n"},
	{name: "low-level: anyOf and $defs read", read: []string{"$defs.X.y=In defs.", "a=Arm."},
		src: "from mcp.server import Server\nfrom mcp.types import Tool\nserver = Server('s')\n@server.list_tools()\nasync def lt():\n    return [Tool(name='t', description='d', inputSchema={'type': 'object', 'properties': {'a': {'anyOf': [{'type': 'string', 'description': 'Arm.'}]}}, '$defs': {'X': {'properties': {'y': {'description': 'In defs.'}}}}})]\n"},
	{name: "low-level: a schema from a call", unread: "schema not resolved",
		src: "from mcp.server import Server\nfrom mcp.types import Tool\nimport lib\nserver = Server('s')\n@server.list_tools()\nasync def lt():\n    return [Tool(name='t', description='d', inputSchema=lib.schema())]\n"},
	{name: "low-level: a keyword whose value is computed", unread: "schema keyword x-doc not read",
		src: "from mcp.server import Server\nfrom mcp.types import Tool\nimport lib\nserver = Server('s')\n@server.list_tools()\nasync def lt():\n    return [Tool(name='t', description='d', inputSchema={'type': 'object', 'x-doc': lib.text()})]\n"},
}

func TestPythonSchemaTexts(t *testing.T) {
	for _, tc := range pySchemaCases {
		t.Run(tc.name, func(t *testing.T) {
			head := fastHead
			if tc.head != "" {
				head = tc.head
			}
			files := map[string]string{"p/__init__.py": "", "p/server.py": head + tc.src}
			for k, v := range tc.files {
				files[k] = v
			}
			s, _ := capExtract(t, files, Options{})
			var read []string
			var unread []string
			for _, e := range s.ParameterDescriptions {
				switch {
				case e.Name == "(schema)" && e.DescriptionState == vocab.StateUnreadable:
					unread = append(unread, e.UnreadableReason)
				case e.DescriptionState == vocab.StateReadable:
					read = append(read, e.Name+"="+e.DescriptionRaw)
					src := files[e.File]
					for _, sp := range e.Spans {
						if b := src[sp.Start:sp.End]; !strings.Contains(e.DescriptionRaw, b) {
							t.Errorf("%s: span %q is not part of the text", e.Name, b)
						}
					}
				default:
					t.Errorf("entry %s in state %s (%s)", e.Name, e.DescriptionState, e.UnreadableReason)
				}
			}
			sort.Strings(read)
			if strings.Join(read, "|") != strings.Join(tc.read, "|") {
				t.Errorf("read %q, want %q", read, tc.read)
			}
			switch {
			case tc.unread == "" && len(unread) > 0:
				t.Errorf("recorded unread %q, want none", unread)
			case tc.unread != "" && (len(unread) != 1 || !strings.Contains(unread[0], tc.unread)):
				t.Errorf("unread %q, want one naming %q", unread, tc.unread)
			}
		})
	}
}
