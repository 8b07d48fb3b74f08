#!/usr/bin/env python3
"""Tests of scripts/py_truth.py on small synthetic packages.

    python3 -m unittest scripts/py_truth_test.py

Each test packs a few source files as an sdist-shaped archive, runs the
reader as the corpus does (a subprocess, JSON out) and checks what it lists.
"""

import io
import json
import os
import subprocess
import sys
import tarfile
import tempfile
import textwrap
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "py_truth.py")
sys.path.insert(0, HERE)
import py_truth  # noqa: E402


def read(files, name="pkg", version="1.0", corrections=None):
    files = dict(files)
    files.setdefault("pyproject.toml", f'[project]\nname = "{name}"\nversion = "{version}"\ndependencies = ["mcp>=1.2"]\n')
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, f"{name}-{version}.tar.gz")
        with tarfile.open(path, "w:gz") as tf:
            for p, body in files.items():
                data = textwrap.dedent(body).encode()
                ti = tarfile.TarInfo(f"{name}-{version}/{p}")
                ti.size = len(data)
                tf.addfile(ti, io.BytesIO(data))
        args = [sys.executable, SCRIPT, path]
        if corrections is not None:
            cp = os.path.join(d, "corrections.json")
            with open(cp, "w") as f:
                json.dump(corrections, f)
            args += ["--corrections", cp]
        out = subprocess.run(args, capture_output=True, text=True, check=True).stdout
        return json.loads(out)


def names(entries):
    return [e["name"] for e in entries]


class CleanDoc(unittest.TestCase):
    def test_py313_cleaning_keeps_blank_lines_and_final_newline(self):
        doc = "Get the forecast.\n\n    Returns text.\n    "
        self.assertEqual(py_truth.clean_doc_py313(doc), "Get the forecast.\n\nReturns text.\n")

    def test_py313_cleaning_expands_tabs_and_strips_the_first_line(self):
        self.assertEqual(py_truth.clean_doc_py313("  One.\n\tTwo.\n\t  Three."), "One.\nTwo.\n  Three.")


class Decorators(unittest.TestCase):
    SRC = '''
        from {mod} import FastMCP
        mcp = FastMCP("x")

        @mcp.tool()
        def search(q: str) -> str:
            """Search.

            Returns hits.
            """

        @mcp.tool(name="fetch_page", description="Fetch " "a page.")
        def fetch(url: str) -> str:
            """Not this."""

        @mcp.prompt()
        def summarise() -> str:
            return "x"

        @mcp.resource("docs://{{name}}")
        def doc(name: str) -> str:
            """A document."""
        '''

    def test_fastmcp_publishes_cleandoc(self):
        t = read({"pkg/server.py": self.SRC.format(mod="fastmcp")})
        self.assertEqual(t["framework"], "fastmcp")
        self.assertEqual(t["outcome"], "parsed")
        tools = {e["name"]: e for e in t["tools"]}
        self.assertEqual(sorted(tools), ["fetch_page", "search"])
        self.assertEqual(tools["search"]["description"], "Search.\n\nReturns hits.")
        self.assertEqual(tools["search"]["doc_source"], "Search.\n\n    Returns hits.\n    ")
        self.assertEqual(tools["fetch_page"]["description"], "Fetch a page.")
        self.assertEqual(names(t["prompts"]), ["summarise"])
        self.assertEqual([(e["name"], e["uri"]) for e in t["resource_templates"]], [("doc", "docs://{name}")])

    def test_sdk_fastmcp_publishes_doc_as_python_313_stores_it(self):
        t = read({"pkg/server.py": self.SRC.format(mod="mcp.server.fastmcp")})
        self.assertEqual(t["framework"], "sdk_fastmcp")
        search = [e for e in t["tools"] if e["name"] == "search"][0]
        self.assertEqual(search["description"], "Search.\n\nReturns hits.\n")


class LowLevel(unittest.TestCase):
    def test_enum_names_with_and_without_value_and_a_loop_over_a_literal_table(self):
        t = read({"pkg/server.py": '''
            from enum import Enum
            from mcp.server import Server
            from mcp.types import Tool

            class Names(str, Enum):
                NOW = "get_now"
                ZONE = "convert_zone"

            EXTRA = {"ping": "Ping the server.", "echo": "Echo back."}
            server = Server("t")

            @server.list_tools()
            async def list_tools():
                tools = [
                    Tool(name=Names.NOW.value, description="Now.", inputSchema={}),
                    Tool(name=Names.ZONE, description="Convert.", inputSchema={}),
                ]
                for n, d in EXTRA.items():
                    tools.append(Tool(name=n, description=d, inputSchema={}))
                return tools
            '''})
        self.assertEqual(t["outcome"], "parsed")
        self.assertEqual(names(t["tools"]), ["convert_zone", "echo", "get_now", "ping"])
        self.assertEqual({e["name"]: e["description"] for e in t["tools"]}["echo"], "Echo back.")

    def test_on_list_tools_constructor(self):
        t = read({"pkg/server.py": '''
            from mcp.server import Server
            import mcp.types as types

            async def handle(ctx, params):
                return types.ListToolsResult(tools=[types.Tool(name="fetch", description="Fetches.", input_schema={})])

            def main():
                app = Server("x", on_list_tools=handle)
            '''})
        self.assertEqual(names(t["tools"]), ["fetch"])

    def test_handler_registry(self):
        t = read({"pkg/tools.py": '''
                from mcp.types import Tool
                class Handler:
                    def __init__(self, name):
                        self.name = name
                class ListFiles(Handler):
                    def __init__(self):
                        super().__init__("list_files")
                    def describe(self):
                        return Tool(name=self.name, description="Lists files.", inputSchema={})
                class ReadFile(Handler):
                    def __init__(self):
                        super().__init__("read_file")
                    def describe(self):
                        return Tool(name=self.name, description="Reads a file.", inputSchema={})
                ''',
                  "pkg/server.py": '''
                from mcp.server import Server
                from . import tools
                app = Server("r")
                handlers = {}
                def add(h):
                    handlers[h.name] = h
                add(tools.ListFiles())
                add(tools.ReadFile())

                @app.list_tools()
                async def list_tools():
                    return [h.describe() for h in handlers.values()]
                '''})
        self.assertEqual(t["outcome"], "parsed")
        self.assertEqual(names(t["tools"]), ["list_files", "read_file"])

    def test_a_list_built_from_runtime_data_is_unclear_not_empty(self):
        t = read({"pkg/server.py": '''
            import json
            from mcp.server import Server
            from mcp.types import Tool
            server = Server("t")

            @server.list_tools()
            async def list_tools():
                spec = json.load(open("tools.json"))
                return [Tool(name=x["name"], description=x["d"], inputSchema={}) for x in spec]
            '''})
        self.assertEqual(t["outcome"], "unclear")
        self.assertEqual(t["tools"], [])
        self.assertTrue(t["undecided"])


class Composition(unittest.TestCase):
    def test_mount_prefixes_the_sub_server_names(self):
        t = read({"pkg/sub.py": '''
                from fastmcp import FastMCP
                jira = FastMCP("jira")
                @jira.tool
                def get_issue(key: str) -> str:
                    """Get an issue."""
                ''',
                  "pkg/main.py": '''
                from fastmcp import FastMCP
                from .sub import jira
                main = FastMCP("main")
                main.mount(jira, namespace="jira")
                old = FastMCP("old")
                old.mount("legacy", jira)
                @main.tool
                def status() -> str:
                    """Status."""
                '''})
        self.assertEqual(names(t["tools"]), ["jira_get_issue", "legacy_get_issue", "status"])
        self.assertNotIn("get_issue", names(t["tools"]))


class Reachability(unittest.TestCase):
    def test_a_register_function_nothing_calls_registers_nothing(self):
        t = read({"pkg/mod.py": '''
                def register(mcp):
                    @mcp.tool()
                    def hidden() -> str:
                        """Hidden."""
                ''',
                  "pkg/server.py": '''
                from mcp.server.fastmcp import FastMCP
                mcp = FastMCP("x")
                @mcp.tool()
                def shown() -> str:
                    """Shown."""
                '''})
        self.assertEqual(names(t["tools"]), ["shown"])
        self.assertEqual(len(t["unreached"]), 1)

    def test_a_parameter_is_resolved_through_its_call_site(self):
        t = read({"pkg/mod.py": '''
                def register(mcp):
                    @mcp.tool()
                    def reached() -> str:
                        """Reached."""
                ''',
                  "pkg/server.py": '''
                from mcp.server.fastmcp import FastMCP
                from . import mod
                mcp = FastMCP("x")
                mod.register(mcp)
                '''})
        self.assertEqual(names(t["tools"]), ["reached"])


class Corrections(unittest.TestCase):
    def test_an_assumption_and_a_removal_are_applied_and_recorded(self):
        src = {"pkg/server.py": '''
            from fastmcp import FastMCP
            def create(namespace):
                mcp = FastMCP("x")
                @mcp.tool(name=namespace + "read")
                def read() -> str:
                    """Read."""
                @mcp.tool(name=namespace + "write")
                def write() -> str:
                    """Write."""
                return mcp
            '''}
        self.assertEqual(read(src)["outcome"], "unclear")
        t = read(src, corrections={"pkg@1.0": {
            "assume": [{"function": "create", "param": "namespace", "value": "", "reason": "default"}],
            "corrections": [{"op": "remove", "kind": "tool", "names": ["write"], "reason": "off by default"}],
            "review": {"status": "reviewed"}}})
        self.assertEqual(t["outcome"], "parsed")
        self.assertEqual(names(t["tools"]), ["read"])
        self.assertEqual([c["op"] for c in t["corrections"]], ["remove"])
        self.assertEqual(t["review"]["status"], "reviewed")
        self.assertEqual(t["assumptions"][0]["param"], "namespace")


def params(t, tool):
    return {p["path"]: p["description"] if p.get("description") is not None else ("UNKNOWN", p["unknown"])
            for e in t["tools"] if e["name"] == tool for p in e["parameters"]}


class ParameterTexts(unittest.TestCase):
    MODELS = {"pkg/models.py": """
        from enum import Enum
        from pydantic import BaseModel, Field

        class Colour(str, Enum):
            '''A colour.

                Indented.'''
            RED = "red"

        class Plain(Enum):
            A = 1

        class Item(BaseModel):
            '''One item.

            Its fields follow.'''
            name: str = Field(description="The name.")
            colour: Colour
            plain: Plain | None = None

        class Wrap(BaseModel):
            items: list[Item] = Field(default_factory=list, description="The items.")
            count: int = 3
        """}

    def server(self, mod, body):
        src = dict(self.MODELS)
        src["pkg/server.py"] = f"from {mod} import FastMCP\n" + textwrap.dedent(body)
        return read(src)

    def test_field_default_annotated_and_bare_string(self):
        body = """
            from typing import Annotated
            from pydantic import Field
            mcp = FastMCP("x")
            D = Field(description="Bound once.")

            @mcp.tool()
            def t(a: str = Field(description="A."), b: Annotated[int, Field(description="B.", ge=0)] = 1,
                  c: Annotated[str, "Bare."] = "", d: str = D, e: int = 5, f: Annotated[str, Field(title="T")] = "") -> str:
                return ""
            """
        sdk = params(self.server("mcp.server.fastmcp", body), "t")
        self.assertEqual(sdk, {"a": "A.", "b": "B.", "d": "Bound once."})  # pydantic and the SDK ignore a bare string
        fm = params(self.server("fastmcp", body), "t")
        self.assertEqual(fm, {"a": "A.", "b": "B.", "c": "Bare.", "d": "Bound once."})  # fastmcp >= 2.11 reads it

    def test_models_and_enums(self):
        body = """
            from pkg.models import Wrap, Item
            mcp = FastMCP("x")

            @mcp.tool()
            def t(w: Wrap, one: Item | None = None) -> str:
                return ""
            """
        t = self.server("mcp.server.fastmcp", body)
        got = [(x["path"], x["description"]) for x in t["tools"][0]["parameters"]]
        self.assertEqual(got, [
            ("w.items", "The items."),                   # the field's Field(description=)
            ("w.items", "One item.\n\nIts fields follow."),  # and the item model's docstring, inspect.cleandoc
            ("w.items.name", "The name."),
            ("w.items.colour", "A colour.\n\nIndented."),   # an Enum's docstring, cleaned
        ])  # Plain has no docstring: no text; count has none; `one` is Item again: pydantic
        #     sends Item's texts once (its $defs entry), listed at the first path only

    def test_unknown_marker_never_a_guess(self):
        body = """
            import os
            from pydantic import Field
            from otherpkg import Thing
            mcp = FastMCP("x")

            @mcp.tool()
            def t(a: str = Field(description=os.environ["D"]), b: Thing = None, c: "Later" = None) -> str:
                return ""
            """
        p = params(self.server("mcp.server.fastmcp", body), "t")
        self.assertEqual(p["a"][0], "UNKNOWN")
        self.assertEqual(p["b"][0], "UNKNOWN")  # a type of another package
        self.assertEqual(p["c"][0], "UNKNOWN")  # a forward reference

    def test_lowlevel_input_schema(self):
        src = {"pkg/server.py": """
            from mcp.server import Server
            from mcp.types import Tool
            server = Server("x")

            @server.list_tools()
            async def list_tools():
                return [Tool(name="t", description="T.", inputSchema={
                    "type": "object", "description": "Root.",
                    "properties": {"q": {"type": "string", "description": "Q."},
                                   "xs": {"type": "array", "items": {"type": "object", "properties": {"id": {"description": "Id."}}}}},
                })]
            """}
        self.assertEqual(params(read(src), "t"), {"(schema)": "Root.", "q": "Q.", "xs[].id": "Id."})


if __name__ == "__main__":
    unittest.main()
