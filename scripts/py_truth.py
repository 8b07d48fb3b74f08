#!/usr/bin/env python3
"""py_truth.py: the independent reader of the Python corpus.

Given an sdist-shaped archive (<name>-<version>/ with the package source, as
scripts/corpus-python-pack.sh writes them), list every registration site of an
MCP server's tools, prompts and resources by the rules of docs/methodology.md
section 5.2/5.3, using only Python's standard library `ast` module. It shares
nothing with the extractor it measures (no tree-sitter, no Go code), so the
two can disagree; where they do, one of them is wrong and a person reads the
source.

What it reads, per framework (the framework is what the package imports and
depends on):

  * FastMCP (`fastmcp` 2.x/3.x, and the SDK's `mcp.server.fastmcp.FastMCP` /
    `mcp.server.mcpserver.MCPServer`): the decorators `@x.tool`, `@x.tool()`,
    `@x.tool("name")`, `@x.tool(name=..., description=...)`, `@x.prompt`,
    `@x.resource(uri)`, the call forms `x.tool(fn, ...)`, `x.tool(...)(fn)`,
    `x.add_tool(fn, ...)`, `x.add_tool(Tool.from_function(fn, ...))`,
    `x.add_prompt`, `x.add_resource`, and composition
    (`x.mount(sub, prefix=...)`, `x.mount("p", sub)`, `namespace=`,
    `x.import_server(...)`), whose names get the framework's prefix rule.
  * low-level `Server`: `@s.list_tools()` / `list_prompts` / `list_resources`
    / `list_resource_templates` handlers and the newer constructor keywords
    `on_list_tools=` / `on_list_prompts=` / `on_list_resources=` /
    `on_list_resource_templates=`, read through the `Tool(...)`,
    `Prompt(...)`, `Resource(...)`, `ResourceTemplate(...)` values the handler
    returns: literal lists, module constants, local lists filled with
    `.append`/`.extend`, `+` of lists, comprehensions and loops over literal
    tables, Enum members (with or without `.value`), f-strings whose parts are
    all literal.

Descriptions are recorded the way each framework publishes them: the
standalone `fastmcp` sends `inspect.getdoc(fn)` (inspect.cleandoc of the
docstring); the SDK's FastMCP sends `fn.__doc__`, which the interpreter cleans
at compile time from Python 3.13 on (first line's leading spaces stripped,
tabs expanded, the common indentation of the later lines removed) and leaves
as written before. Every docstring-derived entry records all three texts
(`doc_source`, `doc_py313`, `doc_cleandoc`); `description` is the published
one (for the SDK: Python 3.13 or later, the version its current releases run
on; `doc_source` is what 3.12 and earlier send).

Where the script cannot decide (a value read from configuration or the
network at run time, a name it cannot carry to a literal, a decorator on an
object it cannot identify), it records the site in `undecided` with a reason
and sets the outcome to `unclear`; it never guesses. A person then reads the
source and records the decision as a correction in
testdata/corpus-python/corrections.json, which this script applies and copies
into the truth file, so a rebuild reproduces the reviewed truth.

Usage:
  py_truth.py ARCHIVE.tar.gz [--corrections FILE] [--out FILE]
"""

import argparse
import ast
import inspect
import io
import json
import os
import re
import sys
import tarfile
import tomllib

MAX_DEPTH = 40        # bound on every recursive evaluation over the source
MAX_ITEMS = 4096      # bound on loop/comprehension expansion
MAX_STEPS = 5_000_000  # bound on evaluation steps per archive
SKIP_DIRS = {"tests", "test", "testing", "examples", "example", "docs", "doc", "benchmarks", "benchmark"}

SDK_FASTMCP = {
    "mcp.server.fastmcp.FastMCP", "mcp.server.fastmcp.server.FastMCP",
    "mcp.server.mcpserver.MCPServer", "mcp.server.mcpserver.server.MCPServer",
    "mcp.server.MCPServer", "mcp.server.FastMCP",
}
FASTMCP = {"fastmcp.FastMCP", "fastmcp.server.FastMCP", "fastmcp.server.server.FastMCP"}
LOWLEVEL = {"mcp.server.Server", "mcp.server.lowlevel.Server", "mcp.server.lowlevel.server.Server"}
TYPE_CTORS = {"Tool": "tool", "Prompt": "prompt", "Resource": "resource", "ResourceTemplate": "resource_template"}
TYPES_MODULES = {"mcp.types", "mcp", "mcp.server.types"}


class Unknown:
    def __init__(self, reason, node=None, mod=None):
        self.reason = reason
        self.where = f"{mod.path}:{node.lineno}" if (node is not None and mod is not None and hasattr(node, "lineno")) else ""

    def __repr__(self):
        return f"Unknown({self.reason} @ {self.where})"


class ServerObj:
    def __init__(self, sid, kind, mod, node, ctor_call):
        self.sid = sid          # "module:line"
        self.kind = kind        # fastmcp | sdk_fastmcp | lowlevel
        self.mod = mod
        self.node = node
        self.call = ctor_call
        self.tools, self.prompts, self.resources, self.templates = [], [], [], []
        self.mounts = []        # (ServerObj, prefix or None, form, site)
        self.mounted_by = []


class Instance:
    """An object of a class of the package (not a server), with the call
    that made it, so its __init__ chain can be read."""

    def __init__(self, mod, cls, call=None, call_mod=None, call_scope=None):
        self.mod, self.cls = mod, cls
        self.call, self.call_mod, self.call_scope = call, call_mod, call_scope or []


class EnumMember:
    def __init__(self, cls, name, value, is_str):
        self.cls, self.name, self.value, self.is_str = cls, name, value, is_str


class FuncRef:
    def __init__(self, mod, node, scope, bound=False, self_value=None):
        self.mod, self.node, self.scope, self.bound, self.self_value = mod, node, scope, bound, self_value


_NOTHING = object()
DECORATOR_SITES = {"tool", "prompt", "resource", "list_tools", "list_prompts", "list_resources", "list_resource_templates"}
CALL_SITES = {"tool", "prompt", "resource", "add_tool", "add_prompt", "add_resource", "add_template", "mount", "import_server"}
NO_CALL_SITE = ": its function has no call site in the package"
STR_METHODS = {"endswith", "startswith", "lower", "upper", "replace", "strip", "lstrip", "rstrip", "format", "title", "capitalize", "removeprefix", "removesuffix"}


class ToolObj:
    """A Tool/Prompt/Resource value built in code (Tool(...) or Tool.from_function)."""

    def __init__(self, kind, fields):
        self.kind, self.fields = kind, fields


def clean_doc_py313(doc):
    """What CPython 3.13+ stores as __doc__ (compile.c _PyCompile_CleanDoc)."""
    doc = doc.expandtabs()
    lines = doc.split("\n")
    margin = None
    for line in lines[1:]:
        stripped = line.lstrip(" ")
        if stripped:
            ind = len(line) - len(stripped)
            margin = ind if margin is None else min(margin, ind)
    margin = margin or 0
    out = [lines[0].lstrip(" ")]
    for line in lines[1:]:
        i = 0
        while i < margin and i < len(line) and line[i] == " ":
            i += 1
        out.append(line[i:])
    return "\n".join(out)


class Module:
    def __init__(self, name, path, tree, is_pkg):
        self.name, self.path, self.tree, self.is_pkg = name, path, tree, is_pkg
        self.imports = {}   # local name -> ("module", dotted) | ("from", module, attr)
        self.assigns = {}   # module-level name -> [value nodes]
        self.funcs = {}     # module-level def name -> node
        self.classes = {}   # module-level class name -> node


class Reader:
    def __init__(self, files, pyproject):
        self.files = files
        self.pyproject = pyproject
        self.modules = {}
        self.parse_errors = []
        self.servers = {}       # sid -> ServerObj
        self.undecided = []
        self.unreached = []
        self.notes = []
        self.framework_imports = set()
        self._load()

    # ---------- loading ----------
    def _load(self):
        for path in sorted(self.files):
            rel = path.split("/", 1)[1] if "/" in path else path
            parts = rel.split("/")
            if any(p in SKIP_DIRS for p in parts[:-1]):
                continue
            base = parts[-1]
            if base.startswith("test_") or base.endswith("_test.py") or base == "conftest.py" or base == "setup.py":
                continue
            modparts = parts[:]
            if modparts and modparts[0] == "src":
                modparts = modparts[1:]
            modparts[-1] = modparts[-1][:-3]
            is_pkg = modparts[-1] == "__init__"
            if is_pkg:
                modparts = modparts[:-1]
            name = ".".join(modparts)
            try:
                tree = ast.parse(self.files[path], filename=rel)
            except (SyntaxError, ValueError) as e:
                self.parse_errors.append(f"{rel}: {e.__class__.__name__}: {e}")
                continue
            m = Module(name, rel, tree, is_pkg)
            m.parents = {}
            for n in ast.walk(tree):
                for c in ast.iter_child_nodes(n):
                    m.parents[c] = n
            self._index(m)
            self.modules[name] = m
            if parts[0] == "src" and len(parts) > 1:
                # some packages import their modules as "src.x" (the directory is on sys.path's parent)
                self.modules.setdefault("src." + name, m)
        self.calls = []  # every call of the package: (module, call node)
        for m in set(self.modules.values()):
            for n in ast.walk(m.tree):
                if isinstance(n, ast.Call):
                    self.calls.append((m, n))
        self.assumptions = {}   # (function name, parameter) -> value, from the review
        self._param_cache = {}

    def _index(self, m):
        for node in m.tree.body:
            self._index_stmt(m, node)

    def _index_stmt(self, m, node):
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.asname:
                    m.imports[a.asname] = ("module", a.name)
                else:
                    m.imports[a.name.split(".")[0]] = ("module", a.name.split(".")[0])
                self._note_framework(a.name)
        elif isinstance(node, ast.ImportFrom):
            base = self._abs_module(m, node.module, node.level)
            for a in node.names:
                m.imports[a.asname or a.name] = ("from", base, a.name)
            self._note_framework(base)
        elif isinstance(node, ast.Assign):
            for t in node.targets:
                if isinstance(t, ast.Name):
                    m.assigns.setdefault(t.id, []).append(node.value)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value is not None:
            m.assigns.setdefault(node.target.id, []).append(node.value)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            m.funcs[node.name] = node
            for n in ast.walk(node):
                # an import inside a function binds the same module names for the reading
                if isinstance(n, ast.ImportFrom):
                    base = self._abs_module(m, n.module, n.level)
                    for a in n.names:
                        m.imports.setdefault(a.asname or a.name, ("from", base, a.name))
                    self._note_framework(base)
                elif isinstance(n, ast.Import):
                    for a in n.names:
                        m.imports.setdefault(a.asname or a.name.split(".")[0], ("module", a.name if a.asname else a.name.split(".")[0]))
                        self._note_framework(a.name)
                # `global x; x = ...` inside a function rebinds the module name
                if isinstance(n, ast.Global):
                    for g in n.names:
                        for a in ast.walk(node):
                            if isinstance(a, ast.Assign) and any(isinstance(t, ast.Name) and t.id == g for t in a.targets):
                                m.assigns.setdefault(g, []).append(a.value)
        elif isinstance(node, ast.ClassDef):
            m.classes[node.name] = node
        elif isinstance(node, (ast.If, ast.Try)):
            # module-level conditionals (TYPE_CHECKING, optional imports): index both arms
            for sub in node.body + getattr(node, "orelse", []) + [s for h in getattr(node, "handlers", []) for s in h.body] + getattr(node, "finalbody", []):
                self._index_stmt(m, sub)

    def _note_framework(self, mod):
        if not mod:
            return
        if mod == "fastmcp" or mod.startswith("fastmcp."):
            self.framework_imports.add("fastmcp")
        elif mod.startswith("mcp.server.fastmcp") or mod.startswith("mcp.server.mcpserver"):
            self.framework_imports.add("mcp.server.fastmcp")
        elif mod.startswith("mcp.server.lowlevel") or mod == "mcp.server":
            self.framework_imports.add("mcp.server")

    def _abs_module(self, m, module, level):
        if level == 0:
            return module or ""
        parts = m.name.split(".") if m.name else []
        if not m.is_pkg:
            parts = parts[:-1]
        if level > 1:
            parts = parts[: len(parts) - (level - 1)] if level - 1 <= len(parts) else []
        base = ".".join(parts)
        if module:
            base = f"{base}.{module}" if base else module
        return base

    # ---------- names ----------
    def qualname(self, m, node, scope, depth=0):
        """Dotted external name of an expression (for imports of framework classes)."""
        if depth > MAX_DEPTH:
            return None
        if isinstance(node, ast.Name):
            if self._local_binding(scope, node.id) is not None:
                return None
            imp = m.imports.get(node.id)
            if imp is None:
                return None
            if imp[0] == "module":
                return imp[1]
            mod, attr = imp[1], imp[2]
            if mod in self.modules:
                inner = self.modules[mod]
                if attr in inner.imports:
                    return self.qualname(inner, ast.Name(id=attr), [], depth + 1)
                return None
            return f"{mod}.{attr}"
        if isinstance(node, ast.Attribute):
            base = self.qualname(m, node.value, scope, depth + 1)
            return f"{base}.{node.attr}" if base else None
        return None

    def _local_binding(self, scope, name):
        for fn in reversed(scope):
            b = local_assigns(fn).get(name)
            if b is not None:
                return b
        return None

    # ---------- evaluation ----------
    def lookup(self, m, name, scope, depth):
        """Value(s) of a name: local function scope, module scope, imports."""
        if depth > MAX_DEPTH:
            return Unknown("depth bound")
        for i in range(len(scope) - 1, -1, -1):
            fn = scope[i]
            la = local_assigns(fn)
            if name in la:
                vals = la[name]
                if len(vals) == 1:
                    # the loop frames inside the function stay visible (a local
                    # assigned from the loop variable)
                    inner = [f for f in scope[i + 1:] if hasattr(f, "_bindings")]
                    return self.ev(m, vals[0], scope[: i + 1] + inner, depth + 1)
                return Unknown(f"local name {name} assigned {len(vals)} times")
            for fd in local_funcs(fn):
                if fd.name == name:
                    return FuncRef(m, fd, scope[: i + 1])
            if name in param_names(fn):
                if name == "self" and not hasattr(fn, "_bindings"):
                    so = self.self_server(m, fn, depth + 1)
                    if so is not None:
                        return so
                return self.param_value(m, fn, name, depth + 1)
        if (m.name, name) in self.assumptions:
            return self.assumptions[(m.name, name)]
        if name in m.assigns:
            vals = m.assigns[name]
            if len(vals) == 1:
                v = self.ev(m, vals[0], [], depth + 1)
                if isinstance(v, (list, dict)) and isinstance(vals[0], (ast.List, ast.Dict, ast.Call)):
                    return self.mutated(m, name, v, depth + 1)
                return v
            evs = [self.ev(m, v, [], depth + 1) for v in vals]
            evs = [e for e in evs if e is not None]  # `x = None` then a real assignment in main()
            if evs and all(isinstance(e, ServerObj) for e in evs) and len({e.sid for e in evs}) == 1:
                return evs[0]
            return Unknown(f"module name {name} assigned {len(vals)} times")
        if name in m.funcs:
            return FuncRef(m, m.funcs[name], [])
        if name in m.classes:
            return ("class", m, m.classes[name])
        imp = m.imports.get(name)
        if imp is not None:
            if imp[0] == "from" and f"{imp[1]}.{imp[2]}" in self.modules:
                inner = self.modules.get(imp[1])
                if inner is None or not (imp[2] in inner.assigns or imp[2] in inner.funcs or imp[2] in inner.classes or imp[2] in inner.imports):
                    return ("module", self.modules[f"{imp[1]}.{imp[2]}"])
            if imp[0] == "from" and imp[1] in self.modules:
                return self.lookup(self.modules[imp[1]], imp[2], [], depth + 1)
            if imp[0] == "module" and imp[1] in self.modules:
                return ("module", self.modules[imp[1]])
            return Unknown(f"imported from another package: {name}")
        if name in ("True", "False", "None"):
            return None
        return Unknown(f"unbound name {name}")

    def param_value(self, m, fn, name, depth):
        """A parameter's value: the review's assumption for it, else the one
        value every call site of the function in the package passes, when
        that is a server object or a literal."""
        if (fn.name, name) in self.assumptions:
            return self.assumptions[(fn.name, name)]
        if getattr(fn, "_bindings", None) is not None or depth > MAX_DEPTH:
            return Unknown(f"parameter {name}")
        key = (id(fn), name)
        if key in self._param_cache:
            return self._param_cache[key]
        self._param_cache[key] = Unknown(f"parameter {name} (cycle)")
        args = fn.args
        positional = [a.arg for a in args.posonlyargs + args.args]
        cls = enclosing_class(m, fn)
        if cls is not None and positional and positional[0] in ("self", "cls"):
            positional = positional[1:]
        vals = []
        for cm, call in self.calls:
            callee = call.func
            cname = callee.id if isinstance(callee, ast.Name) else (callee.attr if isinstance(callee, ast.Attribute) else None)
            target = cls.name if (cls is not None and fn.name == "__init__") else fn.name
            if cname != target:
                continue
            cscope = scope_chain(cm, call)
            got = self.ev(cm, callee, cscope, depth + 1)
            ok = (isinstance(got, FuncRef) and got.node is fn) or (isinstance(got, tuple) and got[0] == "class" and got[2] is cls) \
                or (isinstance(callee, ast.Attribute) and isinstance(callee.value, ast.Name) and callee.value.id == "self" and cls is not None and enclosing_class(cm, call) is cls)
            if not ok:
                continue
            arg = None
            if name in positional and positional.index(name) < len(call.args) and not any(isinstance(a, ast.Starred) for a in call.args):
                arg = call.args[positional.index(name)]
            for k in call.keywords:
                if k.arg == name:
                    arg = k.value
            if arg is None:
                continue
            vals.append(self.ev(cm, arg, cscope, depth + 1))
        out = Unknown(f"parameter {name}" + ("" if vals or self._has_call_site(fn, cls) else NO_CALL_SITE))
        if vals and all(isinstance(v, ServerObj) for v in vals) and len({v.sid for v in vals}) == 1:
            out = vals[0]
        elif vals and all(isinstance(v, str) for v in vals) and len(set(vals)) == 1:
            out = vals[0]
        elif len(vals) == 1 and isinstance(vals[0], (list, dict)):
            out = vals[0]  # one call site hands the function a literal table
        self._param_cache[key] = out
        return out

    def _has_call_site(self, fn, cls):
        """Whether anything in the package calls fn (or constructs its class),
        or passes it somewhere by name (a callback, a registry)."""
        target = cls.name if (cls is not None and fn.name == "__init__") else fn.name
        for cm, call in self.calls:
            f = call.func
            if (isinstance(f, ast.Name) and f.id == target) or (isinstance(f, ast.Attribute) and f.attr == target):
                got = self.ev(cm, f, scope_chain(cm, call), MAX_DEPTH - 8)
                if isinstance(got, FuncRef) and got.node is fn:
                    return True
                if isinstance(got, tuple) and got[0] == "class" and got[2] is cls:
                    return True
                if isinstance(got, Unknown):
                    return True  # cannot tell: count it as called
            for a in list(call.args) + [k.value for k in call.keywords]:
                if (isinstance(a, ast.Name) and a.id == target) or (isinstance(a, ast.Attribute) and a.attr == target):
                    return True
        return False

    def mutated(self, m, name, base, depth):
        """A module-level list or dict with the additions the module makes to
        it: `NAME[k] = v`, `NAME.append/extend/update(...)`, read at module
        level directly and inside a function once per call site of that
        function (a handler registry filled by add_x(Handler()) calls). An
        addition whose value cannot be read makes the whole container
        unknown: it is filled at run time."""
        key = ("mut", m.path, name)
        if key in self._param_cache or depth > MAX_DEPTH:
            return base
        self._param_cache[key] = True
        try:
            muts = []
            for n in ast.walk(m.tree):
                if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Subscript) \
                        and isinstance(n.targets[0].value, ast.Name) and n.targets[0].value.id == name:
                    muts.append(("set", n, n.targets[0].slice, n.value))
                elif isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and isinstance(n.func.value, ast.Name) \
                        and n.func.value.id == name and n.func.attr in ("append", "extend", "update", "add", "insert") and n.args:
                    muts.append((n.func.attr, n, None, n.args[-1]))
            if not muts:
                return base
            out = dict(base) if isinstance(base, dict) else list(base)
            for op, n, knode, vnode in muts:
                chain = scope_chain(m, n)
                envs = []
                if not chain:
                    envs = [[]]
                else:
                    fn = chain[-1]
                    fr = FuncRef(m, fn, chain[:-1])
                    for cm, call in self.calls:
                        f = call.func
                        if not ((isinstance(f, ast.Name) and f.id == fn.name) or (isinstance(f, ast.Attribute) and f.attr == fn.name)):
                            continue
                        got = self.ev(cm, f, scope_chain(cm, call), depth + 1)
                        if not (isinstance(got, FuncRef) and got.node is fn):
                            continue
                        b = self.bind_call(fr, call, cm, scope_chain(cm, call), depth + 1)
                        if isinstance(b, Unknown):
                            return Unknown(f"{name} filled by a call not read", call, cm)
                        envs.append(chain + [fake_frame(b)])
                for env in envs:
                    v = self.ev(m, vnode, env, depth + 1)
                    if isinstance(v, Unknown):
                        return Unknown(f"{name} filled at run time: {v.reason}", n, m)
                    if isinstance(out, dict):
                        if op == "set":
                            k = self.ev(m, knode, env, depth + 1)
                            k = k if isinstance(k, (str, int)) else f"<key {len(out)}>"
                            out[k] = v
                        elif op == "update" and isinstance(v, dict):
                            out.update(v)
                        else:
                            return Unknown(f"{name}: {op} on a dict not read", n, m)
                    else:
                        if op in ("append", "add", "insert"):
                            out.append(v)
                        elif op == "extend" and isinstance(v, list):
                            out.extend(v)
                        else:
                            return Unknown(f"{name}: {op} not read", n, m)
            return out
        finally:
            del self._param_cache[key]

    def self_server(self, m, fn, depth):
        """`self` in a method of a server subclass: the one server object the
        package constructs from that class."""
        cls = enclosing_class(m, fn)
        if cls is None or self.server_class_kind(m, cls) is None:
            return None
        found = {}
        for cm, call in self.calls:
            f = call.func
            if not ((isinstance(f, ast.Name) and f.id == cls.name) or (isinstance(f, ast.Attribute) and f.attr == cls.name)):
                continue
            got = self.ev(cm, f, scope_chain(cm, call), depth + 1)
            if isinstance(got, tuple) and got[0] == "class" and got[2] is cls:
                so = self.ev(cm, call, scope_chain(cm, call), depth + 1)
                if isinstance(so, ServerObj):
                    found[so.sid] = so
        return next(iter(found.values())) if len(found) == 1 else None

    def self_attr(self, m, fn, attr, depth):
        """self.attr inside a method: a method of the class, or the one value
        the class's methods assign to self.attr."""
        cls = enclosing_class(m, fn)
        if cls is None:
            return Unknown(f"self.{attr} outside a class")
        for c in self.class_chain(m, cls):
            for st in c[1].body:
                if isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef)) and st.name == attr:
                    return FuncRef(c[0], st, [], bound=True)
        vals = []
        for st in cls.body:
            if not isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            for n in ast.walk(st):
                if isinstance(n, ast.Assign):
                    for t in n.targets:
                        if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "self" and t.attr == attr:
                            vals.append(self.ev(m, n.value, scope_chain(m, n), depth + 1))
        if vals and all(isinstance(v, ServerObj) for v in vals) and len({v.sid for v in vals}) == 1:
            return vals[0]
        if len(vals) == 1:
            return vals[0]
        return Unknown(f"self.{attr} not known statically")

    def class_chain(self, m, cls, depth=0):
        """The class and its bases defined in the package: [(module, ClassDef)]."""
        out = [(m, cls)]
        if depth > 16:
            return out
        for b in cls.bases:
            if isinstance(b, ast.Subscript):
                b = b.value
            v = self.ev(m, b, [], depth + 1) if isinstance(b, (ast.Name, ast.Attribute)) else None
            if isinstance(v, tuple) and v[0] == "class":
                out += self.class_chain(v[1], v[2], depth + 1)
        return out

    def server_class_kind(self, m, cls, depth=0):
        """fastmcp / sdk_fastmcp / lowlevel when a package class derives from one."""
        for cm, c in self.class_chain(m, cls):
            for b in c.bases:
                if isinstance(b, ast.Subscript):
                    b = b.value
                q = self.qualname(cm, b, [])
                if q in FASTMCP:
                    return "fastmcp"
                if q in SDK_FASTMCP:
                    return "sdk_fastmcp"
                if q in LOWLEVEL:
                    return "lowlevel"
        return None

    def call_function(self, fr, call, cm, cscope, depth):
        """The value a package function returns for this call: parameters
        bound to the call's arguments, the body read for If/Return."""
        fn = fr.node
        args = fn.args
        positional = [a.arg for a in args.posonlyargs + args.args]
        if fr.bound and positional:
            positional = positional[1:]
        b = {}
        defaults = dict(zip([a.arg for a in args.posonlyargs + args.args][-len(args.defaults):], args.defaults)) if args.defaults else {}
        for a, d in zip(args.kwonlyargs, args.kw_defaults):
            if d is not None:
                defaults[a.arg] = d
        for i, a in enumerate(call.args):
            if isinstance(a, ast.Starred) or i >= len(positional):
                return Unknown("call with *args", call, cm)
            b[positional[i]] = Lit(self.ev(cm, a, cscope, depth + 1))
        for k in call.keywords:
            if k.arg is None:
                return Unknown("call with **kwargs", call, cm)
            b[k.arg] = Lit(self.ev(cm, k.value, cscope, depth + 1))
        for pname in positional + [a.arg for a in args.kwonlyargs]:
            if pname not in b and pname in defaults:
                b[pname] = Lit(self.ev(fr.mod, defaults[pname], fr.scope, depth + 1))
        if fr.bound and fr.self_value is not None and [a.arg for a in args.posonlyargs + args.args][:1]:
            b[[a.arg for a in args.posonlyargs + args.args][0]] = Lit(fr.self_value)
        frame = fake_frame(b)
        scope = fr.scope + [fn, frame]
        return self.run_block(fr.mod, fn.body, scope, depth + 1)

    def instance_attr(self, inst, attr, depth):
        """inst.attr: the value the instance's __init__ chain assigns to
        self.attr, with each __init__'s parameters bound from the call that
        made the instance and from each super().__init__(...) call."""
        if depth > MAX_DEPTH:
            return Unknown("depth bound")
        chain = self.class_chain(inst.mod, inst.cls)
        call, cmod, cscope = inst.call, inst.call_mod, inst.call_scope
        for cm, c in chain:
            init = next((st for st in c.body if isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef)) and st.name == "__init__"), None)
            if init is None:
                continue
            if call is None:
                return Unknown(f"{inst.cls.name}.{attr}: no constructor call")
            fr = FuncRef(cm, init, [], bound=True, self_value=inst)
            b = self.bind_call(fr, call, cmod, cscope, depth + 1)
            if isinstance(b, Unknown):
                return b
            scope = [init, fake_frame(b)]
            for n in walk_own(init):
                if isinstance(n, ast.Assign):
                    for t in n.targets:
                        if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "self" and t.attr == attr:
                            return self.ev(cm, n.value, scope, depth + 1)
            # the next __init__ is called by super().__init__(...) here
            nxt = None
            for n in walk_own(init):
                if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "__init__":
                    nxt = n
                    break
            if nxt is None:
                break
            call, cmod, cscope = nxt, cm, scope
        for cm, c in chain:
            for st in c.body:
                if isinstance(st, ast.Assign) and any(isinstance(t, ast.Name) and t.id == attr for t in st.targets):
                    return self.ev(cm, st.value, [], depth + 1)
        return Unknown(f"{inst.cls.name}.{attr} not known statically")

    def bind_call(self, fr, call, cm, cscope, depth):
        fn = fr.node
        args = fn.args
        names = [a.arg for a in args.posonlyargs + args.args]
        positional = names[1:] if fr.bound else names
        b = {}
        if fr.bound and names and fr.self_value is not None:
            b[names[0]] = Lit(fr.self_value)
        # Base.__init__(self, ...) passes self explicitly
        cargs = list(call.args)
        if isinstance(call.func, ast.Attribute) and call.func.attr == "__init__" and not (isinstance(call.func.value, ast.Call)) and cargs:
            cargs = cargs[1:]
        for i, a in enumerate(cargs):
            if isinstance(a, ast.Starred) or i >= len(positional):
                return Unknown("constructor call with *args", call, cm)
            b[positional[i]] = Lit(self.ev(cm, a, cscope, depth + 1))
        for k in call.keywords:
            if k.arg is None:
                return Unknown("constructor call with **kwargs", call, cm)
            b[k.arg] = Lit(self.ev(cm, k.value, cscope, depth + 1))
        if args.defaults:
            for pname, d in zip(names[-len(args.defaults):], args.defaults):
                b.setdefault(pname, Lit(self.ev(fr.mod, d, [], depth + 1)))
        return b

    def run_block(self, m, stmts, scope, depth):
        if depth > MAX_DEPTH:
            return Unknown("depth bound")
        for st in stmts:
            if isinstance(st, ast.Return):
                return self.ev(m, st.value, scope, depth + 1) if st.value is not None else None
            if isinstance(st, ast.If):
                t = self.ev(m, st.test, scope, depth + 1)
                if isinstance(t, (Unknown, ServerObj, FuncRef, ToolObj, tuple, Instance)):
                    if not any(isinstance(n, ast.Return) for b in (st.body, st.orelse) for x in b for n in ast.walk(x)):
                        continue  # a branch that returns nothing cannot change the value returned
                    return Unknown("branch on a value not known statically", st, m)
                r = self.run_block(m, st.body if t else st.orelse, scope, depth + 1)
                if r is not _NOTHING:
                    return r
                continue
            if isinstance(st, (ast.Expr, ast.Pass, ast.Assign, ast.AnnAssign, ast.Import, ast.ImportFrom, ast.Global)):
                continue
            return Unknown(f"{st.__class__.__name__} in a called function not read", st, m)
        return _NOTHING

    def ev(self, m, node, scope, depth=0):
        if depth > MAX_DEPTH:
            return Unknown("depth bound", node, m)
        if isinstance(node, ast.Constant):
            return node.value
        if isinstance(node, ast.JoinedStr):
            out = []
            for v in node.values:
                if isinstance(v, ast.Constant):
                    out.append(v.value)
                elif isinstance(v, ast.FormattedValue) and v.conversion == -1 and v.format_spec is None:
                    x = self.ev(m, v.value, scope, depth + 1)
                    if isinstance(x, EnumMember):
                        x = x.value if x.is_str else Unknown("non-str Enum in f-string")
                    if not isinstance(x, (str, int)):
                        return Unknown("f-string with a value not known statically", node, m)
                    out.append(str(x))
                else:
                    return Unknown("f-string with conversion or format spec", node, m)
            return "".join(out)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            a, b = self.ev(m, node.left, scope, depth + 1), self.ev(m, node.right, scope, depth + 1)
            if isinstance(a, str) and isinstance(b, str):
                return a + b
            if isinstance(a, list) and isinstance(b, list):
                return a + b
            return a if isinstance(a, Unknown) else (b if isinstance(b, Unknown) else Unknown("+ of non-literals", node, m))
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
            return Unknown("%-formatting", node, m)
        if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
            out = []
            for e in node.elts:
                if isinstance(e, ast.Starred):
                    x = self.ev(m, e.value, scope, depth + 1)
                    if isinstance(x, list):
                        out.extend(x)
                    else:
                        out.append(Unknown("starred non-list", e, m))
                else:
                    out.append(self.ev(m, e, scope, depth + 1))
            return out
        if isinstance(node, ast.Dict):
            d = {}
            for k, v in zip(node.keys, node.values):
                if k is None:
                    x = self.ev(m, v, scope, depth + 1)
                    if isinstance(x, dict):
                        d.update(x)
                    else:
                        return Unknown("** of a non-literal", node, m)
                    continue
                kk = self.ev(m, k, scope, depth + 1)
                if isinstance(kk, EnumMember):
                    kk = kk.value if kk.is_str else kk
                if not isinstance(kk, (str, int, EnumMember)):
                    return Unknown("dict key not literal", node, m)
                d[kk] = self.ev(m, v, scope, depth + 1)
            return d
        if isinstance(node, ast.Name):
            return self.lookup(m, node.id, scope, depth + 1)
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self" and scope:
            bound = next((f._bindings["self"].value for f in reversed(scope) if hasattr(f, "_bindings") and isinstance(f._bindings.get("self"), Lit)), None)
            if isinstance(bound, Instance):
                for cm, c in self.class_chain(bound.mod, bound.cls):
                    for st in c.body:
                        if isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef)) and st.name == node.attr:
                            return FuncRef(cm, st, [], bound=True, self_value=bound)
                return self.instance_attr(bound, node.attr, depth + 1)
            if isinstance(bound, ServerObj):
                return Unknown(f"self.{node.attr} of a server object", node, m)
            real = [f for f in scope if not hasattr(f, "_bindings")]
            if real:
                return self.self_attr(m, real[-1], node.attr, depth + 1)
        if isinstance(node, ast.Attribute):
            if node.attr == "value":
                inner = self.ev(m, node.value, scope, depth + 1)
                if isinstance(inner, EnumMember):
                    return inner.value
            base = self.ev(m, node.value, scope, depth + 1)
            if isinstance(base, tuple) and base[0] == "class":
                return self.class_attr(base[1], base[2], node.attr, depth + 1)
            if isinstance(base, tuple) and base[0] == "module":
                return self.lookup(base[1], node.attr, [], depth + 1)
            if isinstance(base, Instance):
                for cm, c in self.class_chain(base.mod, base.cls):
                    for st in c.body:
                        if isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef)) and st.name == node.attr:
                            return FuncRef(cm, st, [], bound=True, self_value=base)
                return self.instance_attr(base, node.attr, depth + 1)
            if isinstance(base, Unknown):
                return base
            return Unknown(f"attribute .{node.attr} of a non-literal", node, m)
        if isinstance(node, ast.Call):
            return self.ev_call(m, node, scope, depth + 1)
        if isinstance(node, ast.ListComp):
            return self.ev_comp(m, node, scope, depth + 1)
        if isinstance(node, ast.Subscript):
            base = self.ev(m, node.value, scope, depth + 1)
            key = self.ev(m, node.slice, scope, depth + 1)
            if isinstance(base, dict) and isinstance(key, (str, int)) and key in base:
                return base[key]
            if isinstance(base, list) and isinstance(key, int) and -len(base) <= key < len(base):
                return base[key]
            return Unknown("subscript not known statically", node, m)
        if isinstance(node, ast.IfExp):
            t = self.ev(m, node.test, scope, depth + 1)
            if isinstance(t, (str, int, float, bool, type(None), list, dict)):
                return self.ev(m, node.body if t else node.orelse, scope, depth + 1)
            return Unknown("conditional expression", node, m)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            t = self.ev(m, node.operand, scope, depth + 1)
            return (not t) if isinstance(t, (str, int, float, bool, type(None), list, dict)) else Unknown("not of a value not known", node, m)
        if isinstance(node, ast.BoolOp):
            vals = [self.ev(m, v, scope, depth + 1) for v in node.values]
            if all(isinstance(v, (str, int, float, bool, type(None))) for v in vals):
                out = vals[0]
                for v in vals[1:]:
                    out = (out and v) if isinstance(node.op, ast.And) else (out or v)
                return out
            return Unknown("boolean of values not known", node, m)
        if isinstance(node, ast.Compare) and len(node.ops) == 1:
            a, b = self.ev(m, node.left, scope, depth + 1), self.ev(m, node.comparators[0], scope, depth + 1)
            lit = (str, int, float, bool, type(None))
            if isinstance(a, lit) and isinstance(b, lit + (list,)):
                op = node.ops[0]
                try:
                    return {ast.Eq: lambda: a == b, ast.NotEq: lambda: a != b, ast.Is: lambda: a is b, ast.IsNot: lambda: a is not b,
                            ast.In: lambda: a in b, ast.NotIn: lambda: a not in b}[type(op)]()
                except (KeyError, TypeError):
                    pass
            return Unknown("comparison of values not known", node, m)
        if isinstance(node, ast.Await):
            if isinstance(node.value, ast.Call):
                # awaiting a coroutine of this package: the value it returns
                v = self.ev(m, node.value, scope, depth + 1)
                if not isinstance(v, Unknown):
                    return v
            return Unknown("awaited value", node, m)
        return Unknown(f"{node.__class__.__name__} not read", node, m)

    def class_attr(self, m, cls, attr, depth):
        bases = {ast.unparse(b) for b in cls.bases}
        is_enum = any(b.split(".")[-1] in ("Enum", "StrEnum") for b in bases)
        is_str = "str" in bases or any(b.split(".")[-1] == "StrEnum" for b in bases)
        for st in cls.body:
            if isinstance(st, ast.Assign) and any(isinstance(t, ast.Name) and t.id == attr for t in st.targets):
                v = self.ev(m, st.value, [], depth + 1)
                if is_enum:
                    return EnumMember(cls.name, attr, v, is_str)
                return v
            if isinstance(st, ast.AnnAssign) and isinstance(st.target, ast.Name) and st.target.id == attr and st.value is not None:
                v = self.ev(m, st.value, [], depth + 1)
                return EnumMember(cls.name, attr, v, is_str) if is_enum else v
        return Unknown(f"class attribute {cls.name}.{attr} not found")

    def ev_call(self, m, node, scope, depth):
        q = self.qualname(m, node.func, scope)
        if q in FASTMCP or q in SDK_FASTMCP or q in LOWLEVEL:
            kind = "fastmcp" if q in FASTMCP else ("sdk_fastmcp" if q in SDK_FASTMCP else "lowlevel")
            sid = f"{m.path}:{node.lineno}"
            if sid not in self.servers:
                self.servers[sid] = ServerObj(sid, kind, m, node, node)
            return self.servers[sid]
        last = q.split(".")[-1] if q else (node.func.attr if isinstance(node.func, ast.Attribute) else (node.func.id if isinstance(node.func, ast.Name) else ""))
        if q and last in TYPE_CTORS and (q.rsplit(".", 1)[0] in TYPES_MODULES):
            return ToolObj(TYPE_CTORS[last], {k.arg: k.value for k in node.keywords if k.arg} | {"__mod": m, "__scope": scope, "__node": node})
        if isinstance(node.func, ast.Attribute) and node.func.attr == "from_function":
            qb = self.qualname(m, node.func.value, scope) or ""
            if qb.split(".")[-1] in ("Tool", "FunctionTool", "Prompt", "FunctionPrompt", "Resource", "FunctionResource"):
                kind = {"Tool": "tool", "FunctionTool": "tool", "Prompt": "prompt", "FunctionPrompt": "prompt"}.get(qb.split(".")[-1], "resource")
                f = {k.arg: k.value for k in node.keywords if k.arg}
                if node.args:
                    f["__fn"] = node.args[0]
                return ToolObj(kind + "_from_function", f | {"__mod": m, "__scope": scope, "__node": node})
        if q in ("textwrap.dedent", "inspect.cleandoc"):
            if len(node.args) == 1:
                v = self.ev(m, node.args[0], scope, depth + 1)
                if isinstance(v, str):
                    import textwrap
                    return textwrap.dedent(v) if q == "textwrap.dedent" else inspect.cleandoc(v)
                return v if isinstance(v, Unknown) else Unknown("dedent of non-literal", node, m)
        if isinstance(node.func, ast.Attribute) and node.func.attr in ("strip", "lstrip", "rstrip") and not node.args:
            v = self.ev(m, node.func.value, scope, depth + 1)
            if isinstance(v, str):
                return getattr(v, node.func.attr)()
        if isinstance(node.func, ast.Attribute) and node.func.attr == "join" and len(node.args) == 1:
            sep = self.ev(m, node.func.value, scope, depth + 1)
            items = self.ev(m, node.args[0], scope, depth + 1)
            if isinstance(sep, str) and isinstance(items, list) and all(isinstance(i, str) for i in items):
                return sep.join(items)
        if isinstance(node.func, ast.Attribute) and node.func.attr in ("values", "items", "keys") and not node.args:
            d = self.ev(m, node.func.value, scope, depth + 1)
            if isinstance(d, dict):
                return {"values": list(d.values()), "keys": list(d.keys()), "items": [[k, v] for k, v in d.items()]}[node.func.attr]
        if isinstance(node.func, ast.Name) and node.func.id in ("list", "tuple") and len(node.args) == 1:
            v = self.ev(m, node.args[0], scope, depth + 1)
            if isinstance(v, list):
                return v
        if isinstance(node.func, ast.Name) and node.func.id == "str" and len(node.args) == 1:
            v = self.ev(m, node.args[0], scope, depth + 1)
            if isinstance(v, EnumMember) and v.is_str:
                return v.value
            if isinstance(v, str):
                return v
        if isinstance(node.func, ast.Attribute) and node.func.attr in STR_METHODS:
            recv = self.ev(m, node.func.value, scope, depth + 1)
            if isinstance(recv, str):
                args = [self.ev(m, a, scope, depth + 1) for a in node.args]
                kws = {k.arg: self.ev(m, k.value, scope, depth + 1) for k in node.keywords if k.arg}
                if all(isinstance(a, (str, int)) for a in args + list(kws.values())):
                    return getattr(recv, node.func.attr)(*args, **kws)
        if last in ("AnyUrl", "AnyHttpUrl", "Url") and len(node.args) == 1:
            v = self.ev(m, node.args[0], scope, depth + 1)
            if isinstance(v, str):
                return v
        # A class or function of this package.
        fr = self.ev(m, node.func, scope, depth + 1) if isinstance(node.func, (ast.Name, ast.Attribute)) else None
        if isinstance(fr, tuple) and fr[0] == "class":
            kind = self.server_class_kind(fr[1], fr[2])
            if kind:
                sid = f"{m.path}:{node.lineno}"
                if sid not in self.servers:
                    self.servers[sid] = ServerObj(sid, kind, m, node, node)
                return self.servers[sid]
            return Instance(fr[1], fr[2], node, m, scope)
        if isinstance(fr, FuncRef):
            return self.call_function(fr, node, m, scope, depth + 1)
        return Unknown(f"call {ast.unparse(node.func)}(...) not read", node, m)

    def ev_comp(self, m, node, scope, depth):
        if len(node.generators) != 1 or node.generators[0].ifs:
            return Unknown("comprehension with several generators or a filter", node, m)
        g = node.generators[0]
        it = self.ev(m, g.iter, scope, depth + 1)
        if not isinstance(it, list):
            return Unknown("comprehension over data not known statically", node, m)
        if len(it) > MAX_ITEMS:
            return Unknown("comprehension too large", node, m)
        out = []
        for item in it:
            binding = bind_target(g.target, item)
            if binding is None:
                return Unknown("comprehension target not bound", node, m)
            out.append(self.with_bindings(m, node.elt, scope, binding, depth + 1))
        return out

    def with_bindings(self, m, expr, scope, binding, depth):
        return self.ev(m, expr, scope + [fake_frame(binding)], depth + 1)


# ---- helpers over function bodies ----

def walk_own(fn):
    """Nodes of a function body, not descending into nested defs/classes/lambdas."""
    stack = list(reversed(fn.body)) if hasattr(fn, "body") and isinstance(fn.body, list) else []
    while stack:
        n = stack.pop()
        yield n
        for c in reversed(list(ast.iter_child_nodes(n))):
            if isinstance(c, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
                yield c
                continue
            stack.append(c)


def local_assigns(fn):
    cache = getattr(fn, "_assigns", None)
    if cache is not None:
        return cache
    d = {}
    for k, v in getattr(fn, "_bindings", {}).items():
        d[k] = [v]
    for n in walk_own(fn):
        if isinstance(n, ast.Assign):
            for t in n.targets:
                if isinstance(t, ast.Name):
                    d.setdefault(t.id, []).append(n.value)
        elif isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name) and n.value is not None:
            d.setdefault(n.target.id, []).append(n.value)
    fn._assigns = d
    return d


def local_funcs(fn):
    return [n for n in ast.iter_child_nodes(fn) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))] + \
        [n for n in walk_own(fn) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]


def param_names(fn):
    a = getattr(fn, "args", None)
    if a is None:
        return set()
    names = {x.arg for x in a.posonlyargs + a.args + a.kwonlyargs}
    if a.vararg:
        names.add(a.vararg.arg)
    if a.kwarg:
        names.add(a.kwarg.arg)
    return names


def returns_of(fn):
    return [n.value for n in walk_own(fn) if isinstance(n, ast.Return) and n.value is not None]


class Lit(ast.expr):
    """An already-evaluated value standing in an expression position."""
    _fields = ()

    def __init__(self, value):
        super().__init__()
        self.value = value


def bind_target(target, item):
    if isinstance(target, ast.Name):
        return {target.id: Lit(item)}
    if isinstance(target, (ast.Tuple, ast.List)) and isinstance(item, (list, tuple)) and len(item) == len(target.elts):
        out = {}
        for t, v in zip(target.elts, item):
            b = bind_target(t, v)
            if b is None:
                return None
            out.update(b)
        return out
    return None


# Lit nodes evaluate to their value.
_orig_ev = Reader.ev


def _ev(self, m, node, scope, depth=0):
    if isinstance(node, Lit):
        return node.value
    # A budget of evaluation steps per archive bounds what the depth bound
    # alone does not (a wide expression re-read at every level); past it
    # every value is unknown, so the sites come out undecided, never guessed.
    self.steps = getattr(self, "steps", 0) + 1
    if self.steps > MAX_STEPS:
        return Unknown("evaluation step budget exhausted", node, m)
    return _orig_ev(self, m, node, scope, depth)


Reader.ev = _ev


def enclosing_class(m, node):
    p = m.parents.get(node)
    while p is not None:
        if isinstance(p, ast.ClassDef):
            return p
        p = m.parents.get(p)
    return None


def scope_chain(m, node):
    chain = []
    p = m.parents.get(node)
    while p is not None:
        if isinstance(p, (ast.FunctionDef, ast.AsyncFunctionDef)):
            chain.append(p)
        p = m.parents.get(p)
    return list(reversed(chain))


def fake_frame(bindings):
    fake = ast.FunctionDef(name="<frame>", args=ast.arguments(posonlyargs=[], args=[], kwonlyargs=[], kw_defaults=[], defaults=[]), body=[], decorator_list=[])
    fake._bindings = bindings
    return fake


def conditions_of(parents, node):
    conds = []
    p = parents.get(node)
    while p is not None:
        if isinstance(p, ast.If):
            conds.append(ast.unparse(p.test))
        if isinstance(p, (ast.For, ast.AsyncFor)):
            conds.append("for " + ast.unparse(p.target) + " in " + ast.unparse(p.iter))
        if isinstance(p, (ast.FunctionDef, ast.AsyncFunctionDef)):
            break
        p = parents.get(p)
    return conds


# ---------- site reading ----------

class SiteReader:
    def __init__(self, r):
        self.r = r

    def run(self):
        r = self.r
        for m in sorted(set(r.modules.values()), key=lambda x: x.path):
            self.parents = m.parents
            self.m = m
            self.walk_scope(m, m.tree, [])

    def scope_of(self, node):
        return scope_chain(self.m, node) + self.loop_frames

    def in_loops(self, m, node, read):
        """Read a site once per element of the loops around it (inside its
        function) when they run over data known statically; a site in a loop
        over anything else is undecided."""
        loops = []
        p = m.parents.get(node)
        while p is not None and not isinstance(p, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Module)):
            if isinstance(p, (ast.For, ast.AsyncFor)):
                loops.append(p)
            p = m.parents.get(p)
        if not loops:
            read()
            return
        loops.reverse()  # outermost first
        base = scope_chain(m, node)

        def rec(i, frames):
            if i == len(loops):
                self.loop_frames = frames
                try:
                    read()
                finally:
                    self.loop_frames = []
                return
            it = self.r.ev(m, loops[i].iter, base + frames)
            if not isinstance(it, list):
                self.undecided(m, loops[i], f"registration inside a loop over data not known statically: {getattr(it, 'reason', type(it).__name__)}")
                return
            for item in it[:MAX_ITEMS]:
                b = bind_target(loops[i].target, item)
                if b is None:
                    self.undecided(m, loops[i], "loop target not bound")
                    return
                rec(i + 1, frames + [fake_frame(b)])
        rec(0, [])

    def walk_scope(self, m, root, _):
        self.loop_frames = []
        for n in ast.walk(root):
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)):
                for d in n.decorator_list:
                    t = d.func if isinstance(d, ast.Call) else d
                    if isinstance(t, ast.Attribute) and t.attr in DECORATOR_SITES and self.server_of(m, t.value, scope_chain(m, n)) is not None:
                        self.in_loops(m, n, lambda n=n, d=d: self.decorator(m, n, d))
                    else:
                        self.decorator(m, n, d)
            elif isinstance(n, ast.Call):
                f = n.func
                if isinstance(f, ast.Call):
                    f = f.func
                if isinstance(f, ast.Attribute) and f.attr in CALL_SITES:
                    self.in_loops(m, n, lambda n=n: self.call(m, n))
                else:
                    self.call(m, n)

    def server_of(self, m, node, scope):
        v = self.r.ev(m, node, scope)
        return v if isinstance(v, ServerObj) else None

    def site(self, m, node):
        return f"{m.path}:{node.lineno}"

    def undecided(self, m, node, reason):
        self.r.undecided.append({"site": self.site(m, node), "reason": reason})

    def decorator(self, m, fn, d):
        call = d if isinstance(d, ast.Call) else None
        target = call.func if call else d
        if not isinstance(target, ast.Attribute):
            return
        attr = target.attr
        if attr not in ("tool", "prompt", "resource", "list_tools", "list_prompts", "list_resources", "list_resource_templates"):
            return
        scope = self.scope_of(fn)
        srv = self.server_of(m, target.value, scope)
        if srv is None:
            v = self.r.ev(m, target.value, scope)
            if isinstance(v, Unknown) and v.reason.endswith(NO_CALL_SITE):
                self.r.unreached.append({"site": self.site(m, d), "reason": f"@{ast.unparse(target.value)}.{attr} inside {scope[-1].name}(), which nothing in the package calls"})
                return
            base = ast.unparse(target.value)
            if attr in ("list_tools", "list_prompts", "list_resources", "list_resource_templates") or base in ("mcp", "server", "app", "self", "self.mcp", "self.server", "self.app") or "mcp" in base.lower() or "server" in base.lower():
                self.undecided(m, d, f"@{base}.{attr}: the decorated object is not known to be an MCP server")
            return
        conds = conditions_of(self.parents, fn)
        if attr in ("list_tools", "list_prompts", "list_resources", "list_resource_templates"):
            self.handler(m, srv, FuncRef(m, fn, scope), attr[len("list_"):], self.site(m, d), conds)
            return
        kw = {k.arg: k.value for k in (call.keywords if call else []) if k.arg}
        pos = call.args if call else []
        if attr == "tool" and srv.kind == "sdk_fastmcp" and call is None:
            self.r.notes.append(f"{self.site(m, d)}: bare @{ast.unparse(target.value)}.tool on the SDK's FastMCP raises TypeError at import")
        name_node = kw.get("name") or (pos[0] if (pos and attr != "resource") else None)
        if attr == "resource":
            uri_node = kw.get("uri") or (pos[0] if pos else None)
            self.add_fn_entry(m, srv, "resource", fn, scope, name_node, kw.get("description"), self.site(m, d), conds, uri_node=uri_node, kw=kw)
        else:
            self.add_fn_entry(m, srv, attr, fn, scope, name_node, kw.get("description"), self.site(m, d), conds, kw=kw)

    def add_fn_entry(self, m, srv, kind, fn, scope, name_node, desc_node, site, conds, uri_node=None, kw=None, fn_mod=None):
        r = self.r
        fm = fn_mod or m
        e = {"site": site}
        if conds:
            e["conditions"] = conds
        if kw and "enabled" in kw:
            en = r.ev(m, kw["enabled"], scope)
            e["enabled"] = en if isinstance(en, bool) else ast.unparse(kw["enabled"])
        if name_node is not None:
            v = r.ev(m, name_node, scope)
            if isinstance(v, EnumMember) and v.is_str:
                v = v.value
            if not isinstance(v, str):
                self.undecided(m, name_node, f"{kind} name not a literal: {getattr(v, 'reason', type(v).__name__)}")
                return
            e["name"] = v
        else:
            e["name"] = fn.name if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) else None
            if e["name"] is None:
                self.undecided(m, desc_node or uri_node or ast.Constant(value=None, lineno=0), f"{kind}: function not known")
                return
        if uri_node is not None:
            u = r.ev(m, uri_node, scope)
            if not isinstance(u, str):
                self.undecided(m, uri_node, f"resource URI not a literal: {getattr(u, 'reason', '')}")
                return
            e["uri"] = u
            if "{" in u:
                kind = "resource_template"
        if desc_node is not None:
            v = r.ev(m, desc_node, scope)
            if isinstance(v, str):
                e["description"] = v
            else:
                # the tool is there; its text is what the run time makes of it
                e["description"] = None
                e["description_unread"] = getattr(v, "reason", type(v).__name__)
            e["description_from"] = "keyword"
        elif fn is None:
            e["description"] = None
            e["description_unread"] = "the registered function is not known statically (its docstring would be the text)"
        elif isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            raw = ast.get_docstring(fn, clean=False)
            if raw is None:
                e["description"] = "" if srv.kind != "fastmcp" else None
                e["description_from"] = "none"
            else:
                e["doc_source"] = raw
                e["doc_py313"] = clean_doc_py313(raw)
                e["doc_cleandoc"] = inspect.cleandoc(raw)
                e["description"] = e["doc_cleandoc"] if srv.kind == "fastmcp" else e["doc_py313"]
                e["description_from"] = "docstring"
        if kind == "tool":
            if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) and srv.kind in ("fastmcp", "sdk_fastmcp"):
                e["parameters"] = ParamReader(r, srv.kind).function(fm, fn)
            else:
                e["parameters"] = [{"path": "(schema)", "description": None, "unknown": "the registered function is not known statically"}]
        {"tool": srv.tools, "prompt": srv.prompts, "resource": srv.resources, "resource_template": srv.templates}[kind].append(e)

    def fn_of(self, m, node, scope):
        v = self.r.ev(m, node, scope)
        if isinstance(v, FuncRef):
            return v
        if isinstance(node, ast.Lambda):
            return None
        return None

    def in_handler(self, m, node):
        """The name of the registered tool/prompt/resource function the node
        sits in, if any: what it registers appears only while a client calls
        it, not in the list a client is shown at start."""
        for fn in scope_chain(m, node):
            if any(node is x for d in fn.decorator_list for x in ast.walk(d)):
                continue  # the node decorates fn; it is not inside its body
            for d in fn.decorator_list:
                t = d.func if isinstance(d, ast.Call) else d
                if isinstance(t, ast.Attribute) and t.attr in ("tool", "prompt", "resource"):
                    return fn.name
        return None

    def call(self, m, node):
        f = node.func
        h = self.in_handler(m, node) if isinstance(f, ast.Attribute) and f.attr in CALL_SITES else None
        if h is not None:
            self.r.unreached.append({"site": self.site(m, node), "reason": f"registered inside the handler of {h}, only while a client calls it"})
            return
        # x.tool(...)(fn)
        if isinstance(f, ast.Call) and isinstance(f.func, ast.Attribute) and f.func.attr in ("tool", "prompt", "resource") and len(node.args) == 1:
            scope = self.scope_of(node)
            srv = self.server_of(m, f.func.value, scope)
            if srv is None:
                return
            fr = self.fn_of(m, node.args[0], scope)
            kw = {k.arg: k.value for k in f.keywords if k.arg}
            attr = f.func.attr
            name_node = kw.get("name") or (f.args[0] if f.args and attr != "resource" else None)
            conds = conditions_of(self.parents, node)
            if fr is None and name_node is None:
                self.undecided(m, node, f"{attr}(...)(fn): function not resolved")
                return
            fnode = fr.node if fr else None
            uri = (kw.get("uri") or (f.args[0] if f.args else None)) if attr == "resource" else None
            self.add_fn_entry(m, srv, attr, fnode, scope, name_node, kw.get("description"), self.site(m, node), conds, uri_node=uri, kw=kw)
            return
        if not isinstance(f, ast.Attribute):
            # Server(..., on_list_tools=handler)
            q = self.r.qualname(m, f, self.scope_of(node))
            if q in LOWLEVEL:
                self._on_list(m, node)
            return
        attr = f.attr
        if attr not in ("tool", "add_tool", "add_prompt", "add_resource", "add_template", "add_resource_fn", "mount", "import_server"):
            q = self.r.qualname(m, f, self.scope_of(node))
            if q in LOWLEVEL:
                self._on_list(m, node)
            return
        scope = self.scope_of(node)
        srv = self.server_of(m, f.value, scope)
        if srv is None:
            base = ast.unparse(f.value)
            if attr in ("add_tool", "mount", "import_server") and ("mcp" in base.lower() or "server" in base.lower() or base in ("self", "app")):
                self.undecided(m, node, f"{base}.{attr}(...): the object is not known to be an MCP server")
            return
        conds = conditions_of(self.parents, node)
        kw = {k.arg: k.value for k in node.keywords if k.arg}
        if attr == "tool":
            if not node.args:
                return  # decorator factory; read where it is applied
            fr = self.fn_of(m, node.args[0], scope)
            if fr is None:
                if isinstance(node.args[0], ast.Constant):
                    return  # @x.tool("name") applied elsewhere
                if "name" not in kw:
                    self.undecided(m, node, "tool(fn, ...): function not resolved and no name= given")
                    return
            self.add_fn_entry(m, srv, "tool", fr.node if fr else None, scope, kw.get("name"), kw.get("description"), self.site(m, node), conds, kw=kw)
            return
        if attr in ("add_tool", "add_prompt", "add_resource", "add_template"):
            if not node.args:
                self.undecided(m, node, f"{attr}() without a positional argument")
                return
            a0 = node.args[0]
            v = self.r.ev(m, a0, scope)
            kind = {"add_tool": "tool", "add_prompt": "prompt", "add_resource": "resource", "add_template": "resource_template"}[attr]
            if isinstance(v, FuncRef):
                self.add_fn_entry(m, srv, kind, v.node, scope, kw.get("name"), kw.get("description"), self.site(m, node), conds, kw=kw,
                                  uri_node=kw.get("uri") if kind != "tool" else None)
                return
            if isinstance(v, ToolObj) and v.kind.endswith("_from_function"):
                fnode = v.fields.get("__fn")
                fr = self.r.ev(v.fields["__mod"], fnode, v.fields["__scope"]) if fnode is not None else None
                if not isinstance(fr, FuncRef):
                    self.undecided(m, node, f"{attr}(X.from_function(...)): function not resolved")
                    return
                self.add_fn_entry(m, srv, kind, fr.node, scope, v.fields.get("name"), v.fields.get("description"), self.site(m, node), conds,
                                  uri_node=v.fields.get("uri"))
                return
            self.undecided(m, node, f"{attr}({ast.unparse(a0)[:60]}): value not read: {getattr(v, 'reason', type(v).__name__)}")
            return
        if attr in ("mount", "import_server"):
            sub, prefix, form = None, None, attr
            args = list(node.args)
            if args and isinstance(self.r.ev(m, args[0], scope), str) and len(args) >= 2:
                prefix = self.r.ev(m, args[0], scope)
                sub = self.server_of(m, args[1], scope)
                form += "(prefix, server)"
            elif args:
                sub = self.server_of(m, args[0], scope)
                if len(args) >= 2:
                    p = self.r.ev(m, args[1], scope)
                    prefix = p if isinstance(p, str) else Unknown("prefix")
                form += "(server, prefix)"
            elif "server" in kw:
                sub = self.server_of(m, kw["server"], scope)
            for key in ("prefix", "namespace"):
                if key in kw:
                    p = self.r.ev(m, kw[key], scope)
                    prefix = p if (isinstance(p, str) or p is None) else Unknown(key)
                    form += f" {key}="
            if sub is None or isinstance(prefix, Unknown):
                self.undecided(m, node, f"{attr}: sub-server or prefix not resolved")
                return
            srv.mounts.append((sub, prefix, form, self.site(m, node), conds))
            sub.mounted_by.append(srv)

    def _on_list(self, m, node):
        scope = self.scope_of(node)
        srv = self.server_of(m, node, scope)
        for k in node.keywords:
            if k.arg in ("on_list_tools", "on_list_prompts", "on_list_resources", "on_list_resource_templates"):
                fr = self.r.ev(m, k.value, scope)
                if not isinstance(fr, FuncRef):
                    self.undecided(m, k.value, f"{k.arg}: handler not resolved")
                    continue
                self.handler(m, srv, fr, k.arg[len("on_list_"):], f"{m.path}:{k.value.lineno}", [])

    def handler(self, m, srv, fr, what, site, conds):
        """Read the entries a list_* handler returns."""
        want = {"tools": "tool", "prompts": "prompt", "resources": "resource", "resource_templates": "resource_template"}[what]
        rets = returns_of(fr.node)
        if not rets:
            self.r.undecided.append({"site": site, "reason": f"list_{what} handler returns nothing readable"})
            return
        fscope = fr.scope + [fr.node]
        for ret in rets:
            v = self.r.ev(fr.mod, ret, fscope)
            # ListToolsResult(tools=[...]) and friends
            if isinstance(v, Unknown) and isinstance(ret, ast.Call):
                q = self.r.qualname(fr.mod, ret.func, fscope) or ""
                if q.split(".")[-1].startswith("List") and q.split(".")[-1].endswith("Result"):
                    for k in ret.keywords:
                        if k.arg in ("tools", "prompts", "resources", "resource_templates", "resourceTemplates"):
                            v = self.r.ev(fr.mod, k.value, fscope)
                            ret = k.value
            if isinstance(ret, ast.Name) and isinstance(v, list):
                v = v + self.appended(fr, ret.id, fscope)
            if not isinstance(v, list):
                self.r.undecided.append({"site": f"{fr.mod.path}:{ret.lineno}", "reason": f"list_{what} handler returns a value not read: {getattr(v, 'reason', type(v).__name__)}"})
                continue
            for item in v:
                if isinstance(item, ToolObj) and item.kind == want:
                    self.tool_obj(srv, item, want, site, conds)
                elif isinstance(item, Unknown):
                    self.r.undecided.append({"site": item.where or site, "reason": f"list_{what} element not read: {item.reason}"})
                else:
                    self.r.undecided.append({"site": site, "reason": f"list_{what} element is {type(item).__name__}, not {want}"})

    def appended(self, fr, name, scope):
        out = []
        in_loop = {id(x) for n in walk_own(fr.node) if isinstance(n, (ast.For, ast.AsyncFor)) for st in n.body for x in ast.walk(st)}
        for n in walk_own(fr.node):
            if id(n) in in_loop and not isinstance(n, (ast.For, ast.AsyncFor)):
                continue  # read once per element by the loop below
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and isinstance(n.func.value, ast.Name) and n.func.value.id == name:
                if n.func.attr == "append" and len(n.args) == 1:
                    out.append(self.r.ev(fr.mod, n.args[0], scope))
                elif n.func.attr == "extend" and len(n.args) == 1:
                    v = self.r.ev(fr.mod, n.args[0], scope)
                    out.extend(v if isinstance(v, list) else [v])
            elif isinstance(n, ast.AugAssign) and isinstance(n.target, ast.Name) and n.target.id == name:
                v = self.r.ev(fr.mod, n.value, scope)
                out.extend(v if isinstance(v, list) else [v])
            elif isinstance(n, (ast.For, ast.AsyncFor)):
                # loops over a literal table that append
                for st in n.body:
                    direct = isinstance(st, ast.Expr) and isinstance(st.value, ast.Call) and isinstance(st.value.func, ast.Attribute) \
                        and isinstance(st.value.func.value, ast.Name) and st.value.func.value.id == name and st.value.func.attr == "append"
                    if not direct:
                        if any(isinstance(x, ast.Call) and isinstance(x.func, ast.Attribute) and isinstance(x.func.value, ast.Name)
                               and x.func.value.id == name for x in ast.walk(st)):
                            # an addition under an if or a nested loop: not read, so the list is not known
                            out.append(Unknown("addition to the list under a condition or nested loop inside a loop", st, fr.mod))
                        continue
                    if direct:
                        it = self.r.ev(fr.mod, n.iter, scope)
                        if not isinstance(it, list):
                            out.append(Unknown("append inside a loop over data not known statically", n, fr.mod))
                            continue
                        for item in it[:MAX_ITEMS]:
                            b = bind_target(n.target, item)
                            if b is None:
                                out.append(Unknown("loop target not bound", n, fr.mod))
                                break
                            out.append(self.r.with_bindings(fr.mod, st.value.args[0], scope, b, 1))
        return out

    def tool_obj(self, srv, item, kind, site, conds):
        f = item.fields
        m, scope = f["__mod"], f["__scope"]
        e = {"site": f"{m.path}:{f['__node'].lineno}"}
        if conds:
            e["conditions"] = conds
        for key in ("name", "description", "uri", "uriTemplate", "uri_template"):
            if key not in f:
                continue
            v = self.r.ev(m, f[key], scope)
            if isinstance(v, EnumMember):
                v = v.value if v.is_str else Unknown("non-str Enum member")
            if key == "description" and not isinstance(v, str) and v is not None:
                e["description_unread"] = getattr(v, "reason", type(v).__name__)
                v = None
            if not isinstance(v, str) and not (key == "description" and v is None):
                self.r.undecided.append({"site": e["site"], "reason": f"{kind} {key} not read: {getattr(v, 'reason', type(v).__name__)}"})
                return
            e["description" if key == "description" else ("uri" if key.startswith("uri") else key)] = v
        if "name" not in e:
            self.r.undecided.append({"site": e["site"], "reason": f"{kind} without a name"})
            return
        e.setdefault("description", None)
        e["description_from"] = "keyword" if e["description"] is not None else "none"
        if kind == "tool":
            pr, out = ParamReader(self.r, "lowlevel"), []
            node = f.get("inputSchema", f.get("input_schema"))
            if node is None:
                pass  # no inputSchema keyword: a required argument of Tool, the reading of the call is elsewhere
            else:
                mc = model_of_schema_call(self.r, m, node, scope)
                if mc is not None:
                    pr.cls(mc[0], mc[1], "", out, frozenset(), 0)
                else:
                    pr.schema(self.r.ev(m, node, scope), "", out)
            e["parameters"] = out
        {"tool": srv.tools, "prompt": srv.prompts, "resource": srv.resources, "resource_template": srv.templates}[kind].append(e)


# ---------- parameter texts ----------
#
# What a client is sent as the descriptions inside a tool's inputSchema, read
# from the libraries' own code (not from the extractor):
#   * pydantic (json_schema.py, _generate_schema.py): a field's
#     Field(description=...) (a default or Annotated metadata); a model's own
#     __doc__ under inspect.cleandoc (_update_class_schema; BaseModel itself
#     has none); an Enum's __doc__ the same, "An enumeration." dropped
#     (_enum_schema). Other Annotated metadata (a bare string, annotated_types
#     constraints, validators) adds no description in pydantic.
#   * the SDK's FastMCP (func_metadata.py) builds one pydantic model of the
#     function's parameters: the texts above, nothing more.
#   * the standalone fastmcp from 2.11 (utilities/types.py
#     get_cached_typeadapter, "Support string annotations"): a parameter
#     annotated Annotated[T, "text"] (exactly one metadata item, a str) gets
#     Field(description="text"); only the function's own parameters.
#   * a low-level Tool(inputSchema=...): the dict as written, every
#     "description" under it (the root's too: it is sent).
# A text is one {"path", "description"}; the path is the parameter, then
# ".field" for a model field ("[]" for a JSON schema's items, "(schema)" for a
# root). Where the reader cannot tell, {"path", "description": None,
# "unknown": reason}: it never guesses.

PARAM_DEPTH = 48  # each model level takes about three steps
NO_TEXT_MODULES = ("typing", "typing_extensions", "datetime", "uuid", "decimal", "pathlib", "collections",
                   "collections.abc", "ipaddress", "re", "builtins", "annotated_types")
NO_TEXT_NAMES = {"str", "int", "float", "bool", "bytes", "list", "dict", "set", "frozenset", "tuple", "object",
                 "None", "type", "complex", "bytearray"}
FIELD_FUNCS = {"pydantic.Field", "pydantic.fields.Field"}
MODEL_BASES = {"pydantic.BaseModel", "pydantic.main.BaseModel"}
ENUM_BASES = {"enum.Enum", "enum.StrEnum", "enum.IntEnum", "enum.Flag", "enum.IntFlag"}
# pydantic names that add no description (constraints, validators, url types)
PYDANTIC_NO_TEXT = {"AfterValidator", "BeforeValidator", "PlainValidator", "WrapValidator", "StringConstraints",
                    "AnyUrl", "HttpUrl", "AnyHttpUrl", "EmailStr", "SecretStr", "PositiveInt", "NonNegativeInt",
                    "conint", "constr", "confloat", "conlist", "Strict", "StrictStr", "StrictInt", "StrictBool",
                    "StrictFloat", "Json", "FilePath", "DirectoryPath", "UUID4", "PositiveFloat", "NonNegativeFloat"}
SKIP_PARAM_TYPES = ("Context",)


class ParamReader:
    def __init__(self, r, fw):
        self.r = r
        self.fw = fw  # fastmcp / sdk_fastmcp
        # pydantic writes each model and Enum of one schema once (its $defs
        # entry, referenced by every later use): its texts are listed at the
        # first path that reaches it, not again (one reader per tool)
        self.done = set()

    def unknown(self, out, path, why):
        out.append({"path": path or "(schema)", "description": None, "unknown": why})

    def function(self, m, fn):
        out = []
        a = fn.args
        params = a.posonlyargs + a.args
        defaults = [None] * (len(params) - len(a.defaults)) + list(a.defaults)
        pairs = list(zip(params, defaults)) + list(zip(a.kwonlyargs, a.kw_defaults))
        for i, (p, d) in enumerate(pairs):
            if i == 0 and p.arg in ("self", "cls"):
                continue
            if p.annotation is not None:
                q = self.r.qualname(m, p.annotation, []) or ""
                if q.rsplit(".", 1)[-1] in SKIP_PARAM_TYPES or (isinstance(p.annotation, ast.Name) and p.annotation.id in SKIP_PARAM_TYPES):
                    continue  # the framework's context, not in the schema
            self.field(m, p.arg, p.annotation, d, out, top=True, seen=frozenset(), depth=0)
        return out

    def resolve(self, m, node, depth=0):
        """(module, node) a module-level name stands for (one assignment, imports followed)."""
        while isinstance(node, ast.Name) and depth < MAX_DEPTH:
            depth += 1
            if node.id in m.assigns and len(m.assigns[node.id]) == 1:
                node = m.assigns[node.id][0]
                continue
            imp = m.imports.get(node.id)
            if imp and imp[0] == "from" and imp[1] in self.r.modules:
                m2 = self.r.modules[imp[1]]
                if imp[2] in m2.assigns or imp[2] in m2.imports:
                    m, node = m2, ast.Name(id=imp[2])
                    continue
            break
        return m, node

    def field_call(self, m, node):
        return isinstance(node, ast.Call) and (self.r.qualname(m, node.func, []) in FIELD_FUNCS)

    def field_text(self, m, call, path, out):
        """The description one Field(...) call gives: str, None, or False (unknown, recorded)."""
        kws = {k.arg: k.value for k in call.keywords}
        if None in kws:
            self.unknown(out, path, "Field(**...) not read")
            return False
        if "json_schema_extra" in kws:
            self.unknown(out, path, "Field(json_schema_extra=...) may rewrite the schema")
            return False
        if "description" not in kws:
            return None
        v = self.r.ev(m, kws["description"], [])
        if isinstance(v, EnumMember) and v.is_str:
            v = v.value
        if isinstance(v, str):
            return v
        if v is None and isinstance(kws["description"], ast.Constant):
            return None
        self.unknown(out, path, f"Field description not a literal: {getattr(v, 'reason', type(v).__name__)}")
        return False

    def field(self, m, path, ann, default, out, top, seen, depth):
        if depth > PARAM_DEPTH:
            self.unknown(out, path, "nesting bound")
            return
        texts = []
        if default is not None:
            dm, dn = self.resolve(m, default)
            if self.field_call(dm, dn):
                t = self.field_text(dm, dn, path, out)
                if t is False:
                    return
                if t is not None:
                    texts.append(t)
            elif isinstance(dn, ast.Call) and not isinstance(default, ast.Constant):
                self.unknown(out, path, f"default {ast.unparse(default)[:60]} not read as a value (it may be a FieldInfo)")
                return
        # Annotated metadata
        inner = ann
        if isinstance(ann, ast.Subscript) and self.is_annotated(m, ann.value):
            elts = ann.slice.elts if isinstance(ann.slice, ast.Tuple) else [ann.slice]
            inner, meta = elts[0], elts[1:]
            for md in meta:
                mm, mn = self.resolve(m, md)
                if self.field_call(mm, mn):
                    t = self.field_text(mm, mn, path, out)
                    if t is False:
                        return
                    if t is not None:
                        texts.append(t)
                elif isinstance(mn, ast.Constant) and isinstance(mn.value, str):
                    if top and self.fw == "fastmcp" and len(meta) == 1:
                        texts.append(mn.value)  # fastmcp >= 2.11 makes it Field(description=...)
                    # pydantic and the SDK ignore a bare string
                elif isinstance(mn, ast.Constant):
                    pass
                elif isinstance(mn, ast.Call) and self.no_text(mm, mn.func):
                    pass
                else:
                    self.unknown(out, path, f"Annotated metadata {ast.unparse(md)[:60]} not read")
                    return
        if len(set(texts)) > 1:
            self.unknown(out, path, "several Field descriptions (which one pydantic keeps is a merge question)")
            return
        if texts:
            out.append({"path": path, "description": texts[0]})
        self.type_texts(m, inner, path, out, seen, depth + 1)

    def is_annotated(self, m, node):
        q = self.r.qualname(m, node, []) or ""
        if q in ("typing.Annotated", "typing_extensions.Annotated"):
            return True
        mm, n = self.resolve(m, node)
        return False if n is node else self.is_annotated(mm, n)

    def no_text(self, m, node):
        if isinstance(node, ast.Name) and node.id in NO_TEXT_NAMES and node.id not in m.imports and node.id not in m.classes and node.id not in m.assigns:
            return True
        q = self.r.qualname(m, node, []) or ""
        mod, _, name = q.rpartition(".")
        if mod in NO_TEXT_MODULES or mod.split(".")[0] in ("annotated_types",):
            return True
        if mod.split(".")[0] == "pydantic" and name in PYDANTIC_NO_TEXT:
            return True
        return False

    def type_texts(self, m, t, path, out, seen, depth):
        if t is None or depth > PARAM_DEPTH:
            if t is not None:
                self.unknown(out, path, "nesting bound")
            return
        if isinstance(t, ast.Constant):
            if t.value is None or t.value is Ellipsis:
                return
            self.unknown(out, path, f"forward reference {t.value!r} not resolved")
            return
        if isinstance(t, ast.BinOp) and isinstance(t.op, ast.BitOr):
            self.type_texts(m, t.left, path, out, seen, depth + 1)
            self.type_texts(m, t.right, path, out, seen, depth + 1)
            return
        if isinstance(t, ast.Subscript):
            q = self.r.qualname(m, t.value, []) or ""
            if q.endswith("Literal"):
                return
            if self.is_annotated(m, t.value):
                self.field(m, path, t, None, out, False, seen, depth + 1)
                return
            if not self.no_text(m, t.value):
                self.unknown(out, path, f"generic {ast.unparse(t.value)} not read")
                return
            elts = t.slice.elts if isinstance(t.slice, ast.Tuple) else [t.slice]
            for e in elts:
                self.type_texts(m, e, path, out, seen, depth + 1)
            return
        if isinstance(t, (ast.Name, ast.Attribute)):
            if self.no_text(m, t):
                return
            v = self.r.ev(m, t, [])
            if isinstance(v, tuple) and v[0] == "class":
                self.cls(v[1], v[2], path, out, seen, depth + 1)
                return
            mm, n = self.resolve(m, t)
            if n is not t and isinstance(n, (ast.Subscript, ast.Name, ast.Attribute, ast.BinOp)):
                self.type_texts(mm, n, path, out, seen, depth + 1)  # an alias: Q = Annotated[...]
                return
            self.unknown(out, path, f"type {ast.unparse(t)} not read: {getattr(v, 'reason', type(v).__name__)}")
            return
        self.unknown(out, path, f"annotation {ast.unparse(t)[:60]} not read")

    def cls(self, m, c, path, out, seen, depth):
        key = (m.name, c.name, c.lineno)
        if key in seen or key in self.done:
            return  # sent once, in $defs: listed at its first path
        seen = seen | {key}
        self.done.add(key)
        chain = self.r.class_chain(m, c)
        ext = set()
        for cm, cc in chain:
            for b in cc.bases:
                b0 = b.value if isinstance(b, ast.Subscript) else b
                v = self.r.ev(cm, b0, []) if isinstance(b0, (ast.Name, ast.Attribute)) else None
                if isinstance(v, tuple) and v[0] == "class":
                    continue
                ext.add(self.r.qualname(cm, b0, []) or ast.unparse(b0))
        if ext & ENUM_BASES or any(e.endswith("Enum") and e.startswith("enum.") for e in ext):
            doc = ast.get_docstring(c, clean=False)
            if doc:
                d = inspect.cleandoc(doc)
                if d and d != "An enumeration.":
                    out.append({"path": path, "description": d})
            return
        if not ext <= MODEL_BASES or not ext:
            self.unknown(out, path, f"class {c.name} is not a pydantic model or an Enum of the package (bases {sorted(ext)})")
            return
        for cm, cc in chain:
            for st in cc.body:
                if isinstance(st, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "model_config" for t in st.targets):
                    if "use_attribute_docstrings" in ast.unparse(st.value) or "json_schema_extra" in ast.unparse(st.value):
                        self.unknown(out, path, f"model_config of {cc.name} adds schema text")
                        return
                if isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef)) and st.name in ("model_json_schema", "__get_pydantic_json_schema__", "__get_pydantic_core_schema__"):
                    self.unknown(out, path, f"{cc.name}.{st.name} rewrites the schema")
                    return
        doc = ast.get_docstring(c, clean=False)
        if doc:
            out.append({"path": path or "(schema)", "description": inspect.cleandoc(doc)})
        fields = {}
        for cm, cc in reversed(chain):  # a subclass's field replaces its base's
            for st in cc.body:
                if isinstance(st, ast.AnnAssign) and isinstance(st.target, ast.Name) and not st.target.id.startswith("_"):
                    if "ClassVar" in ast.unparse(st.annotation):
                        continue
                    fields[st.target.id] = (cm, st)
        for name, (cm, st) in fields.items():
            self.field(cm, f"{path}.{name}" if path else name, st.annotation, st.value, out, False, seen, depth + 1)

    def schema(self, v, path, out, depth=0):
        """Every description of a JSON-schema dict as written (a low-level inputSchema)."""
        if depth > PARAM_DEPTH * 3:
            self.unknown(out, path, "nesting bound")
            return
        if isinstance(v, Unknown):
            self.unknown(out, path, f"schema not read: {v.reason}")
            return
        if isinstance(v, list):
            for x in v:
                self.schema(x, path, out, depth + 1)
            return
        if not isinstance(v, dict):
            return
        for k, x in v.items():
            if isinstance(k, Unknown) or not isinstance(k, str):
                self.unknown(out, path, "schema key not read")
                continue
            if k == "description":
                if isinstance(x, str):
                    out.append({"path": path or "(schema)", "description": x})
                else:
                    self.unknown(out, path, f"description not a literal: {getattr(x, 'reason', type(x).__name__)}")
            elif k in ("properties", "$defs", "definitions", "patternProperties", "dependentSchemas"):
                if isinstance(x, Unknown) or not isinstance(x, dict):
                    self.unknown(out, path, f"{k} not read")
                    continue
                for name, sub in x.items():
                    if not isinstance(name, str):
                        self.unknown(out, path, f"{k} name not read")
                        continue
                    p = name if k == "properties" else f"{k}.{name}"
                    self.schema(sub, f"{path}.{p}" if path else p, out, depth + 1)
            elif k in ("items", "additionalItems", "contains"):
                self.schema(x, path + "[]", out, depth + 1)
            elif k in ("additionalProperties", "not", "propertyNames", "anyOf", "oneOf", "allOf", "prefixItems", "if", "then", "else"):
                self.schema(x, path, out, depth + 1)
            elif isinstance(x, Unknown):
                self.unknown(out, path, f"schema keyword {k} not read: {x.reason}")


def model_of_schema_call(r, m, node, scope):
    """M.model_json_schema() / M.schema() of a package model: (module, ClassDef) or None."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in ("model_json_schema", "schema") and not node.args and not node.keywords:
        v = r.ev(m, node.func.value, scope)
        if isinstance(v, tuple) and v[0] == "class":
            return v[1], v[2]
    return None


# ---------- assembling ----------

def dependency_of(pyproject):
    deps = []
    try:
        deps = pyproject.get("project", {}).get("dependencies", []) or []
        for extra in (pyproject.get("project", {}).get("optional-dependencies", {}) or {}).values():
            deps += extra
        poetry = pyproject.get("tool", {}).get("poetry", {}).get("dependencies", {})
        deps += [f"{k}{v if isinstance(v, str) else ''}" for k, v in poetry.items()]
    except AttributeError:
        pass
    out = {}
    for d in deps:
        mm = re.match(r"^\s*([A-Za-z0-9_.\-]+)(\[[^\]]*\])?\s*(.*)$", d)
        if mm and mm.group(1).lower() in ("fastmcp", "mcp"):
            spec = (mm.group(3) or "").split(";")[0].strip()
            if "://" in spec or spec.startswith("@"):
                spec = "(a direct reference to a repository, no version)"
            out[mm.group(1).lower()] = spec
    return out


def prefixed(entries, prefix, kind, form):
    if not prefix:
        return [dict(e) for e in entries]
    out = []
    for e in entries:
        e = dict(e)
        if kind in ("tool", "prompt") or (kind in ("resource", "resource_template") and form.startswith("import_server")):
            e["name"] = f"{prefix}_{e['name']}"
        if "uri" in e and kind in ("resource", "resource_template"):
            u = e["uri"]
            if "://" in u:
                proto, path = u.split("://", 1)
                e["uri"] = f"{proto}://{prefix}/{path}"
        e["via"] = f"{form} prefix {prefix!r}"
        out.append(e)
    return out


def surface_of(srv, seen, depth=0):
    if depth > MAX_DEPTH or srv.sid in seen:
        return None
    seen = seen | {srv.sid}
    s = {"tool": list(srv.tools), "prompt": list(srv.prompts), "resource": list(srv.resources), "resource_template": list(srv.templates)}
    for sub, prefix, form, site, conds in srv.mounts:
        inner = surface_of(sub, seen, depth + 1)
        if inner is None:
            continue
        for k in s:
            for e in prefixed(inner[k], prefix, k, form):
                if conds:
                    e["conditions"] = e.get("conditions", []) + conds
                s[k].append(e)
    return s


def read_archive(path):
    files, pyproject, top = {}, None, None
    with tarfile.open(path, "r:gz") as tf:
        for ti in tf.getmembers():
            if not ti.isfile():
                continue
            parts = ti.name.split("/")
            top = top or parts[0]
            if ti.name.endswith(".py"):
                files[ti.name] = tf.extractfile(ti).read()
            elif ti.name == f"{parts[0]}/pyproject.toml":
                pyproject = tomllib.loads(tf.extractfile(ti).read().decode("utf-8"))
    return files, pyproject or {}, top


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("archive")
    ap.add_argument("--corrections", help="corrections.json (reviewed decisions applied to the output)")
    ap.add_argument("--out")
    a = ap.parse_args()
    files, pyproject, top = read_archive(a.archive)
    sys.setrecursionlimit(10000)
    r = Reader(files, pyproject)
    top_name = top.rsplit("-", 1)[0] if top else ""
    review = load_review(a.corrections, pyproject, top)
    for asm in review.get("assume", []):
        if "param" in asm:
            r.assumptions[(asm["function"], asm["param"])] = asm["value"]
        else:
            r.assumptions[(asm["module"], asm["name"])] = asm["value"]
    SiteReader(r).run()
    name = pyproject.get("project", {}).get("name") or top.rsplit("-", 1)[0]
    version = top.rsplit("-", 1)[1] if top and "-" in top else ""
    deps = dependency_of(pyproject)
    kinds = sorted({s.kind for s in r.servers.values()})
    roots = [s for s in r.servers.values() if not s.mounted_by]
    if review.get("run_servers"):
        # the review names the server(s) the entry point runs by default
        # when a package holds several (one per mode or partition)
        chosen = set(review["run_servers"]["servers"])
        unknown = chosen - {s.sid for s in roots}
        if unknown:
            raise SystemExit(f"run_servers names servers the reader did not find: {sorted(unknown)}")
        roots = [s for s in roots if s.sid in chosen]
    total = {"tool": [], "prompt": [], "resource": [], "resource_template": []}
    servers_out = []
    for s in sorted(roots, key=lambda x: x.sid):
        surf = surface_of(s, frozenset())
        if surf is None:
            continue
        n = sum(len(v) for v in surf.values())
        servers_out.append({"server": s.sid, "kind": s.kind, "entries": n, "mounts": [
            {"server": sub.sid, "prefix": p, "form": f, "site": site} for sub, p, f, site, _ in s.mounts]})
        for k in total:
            total[k].extend(surf[k])
    for s in r.servers.values():
        if s.mounted_by:
            servers_out.append({"server": s.sid, "kind": s.kind, "mounted_by": sorted({p.sid for p in s.mounted_by}),
                                "mounts": [{"server": sub.sid, "prefix": p, "form": f, "site": site} for sub, p, f, site, _ in s.mounts]})
    not_listed = []
    for k in total:
        kept = []
        for e in total[k]:
            if e.get("enabled") is False:
                not_listed.append(dict(e, kind=k, reason="enabled=False: registered disabled, not listed"))
            else:
                kept.append(e)
        total[k] = kept
    has_sites = any(total.values()) or r.undecided
    if r.undecided:
        outcome = "unclear"
    elif any(total.values()):
        outcome = "parsed"
    else:
        outcome = "no_registration_site"
    framework = "unknown"
    if "fastmcp" in kinds:
        framework = "fastmcp"
    elif "sdk_fastmcp" in kinds:
        framework = "sdk_fastmcp"
    elif "lowlevel" in kinds:
        framework = "lowlevel"
    truth = {
        "name": name, "version": version,
        "generated_by": "scripts/py_truth.py",
        # members in syntax newer than the interpreter land in parse_errors
        "parsed_with": f"Python {sys.version_info.major}.{sys.version_info.minor}",
        "framework": framework,
        "server_kinds": kinds,
        "dependencies": deps,
        "framework_imports": sorted(r.framework_imports),
        "description_rule": {"fastmcp": "inspect.cleandoc of the docstring (inspect.getdoc)",
                             "sdk_fastmcp": "fn.__doc__ as CPython 3.13+ stores it (doc_source is what 3.12 and earlier send)",
                             "lowlevel": "the description= literal as written"}.get(framework, ""),
        "outcome": outcome,
        "outcome_detail": "",
        "tools": dedupe(total["tool"]), "prompts": dedupe(total["prompt"]),
        "resources": dedupe(total["resource"]), "resource_templates": dedupe(total["resource_template"]),
        "not_listed": not_listed,
        "servers": servers_out,
        "undecided": r.undecided,
        "unreached": r.unreached,
        "parse_errors": r.parse_errors,
        "notes": r.notes,
        "review": {"status": "plain" if outcome != "unclear" and not any(s.get("mounts") for s in servers_out) and not has_conditions(total) else "needs_review"},
        "corrections": [],
    }
    if review.get("run_servers"):
        truth["corrections"].append({"op": "run_servers", **review["run_servers"]})
    if a.corrections:
        apply_corrections(truth, a.corrections, r)
    out = json.dumps(truth, indent=2, ensure_ascii=False, sort_keys=False) + "\n"
    if a.out:
        os.makedirs(os.path.dirname(a.out) or ".", exist_ok=True)
        with open(a.out, "w", encoding="utf-8") as f:
            f.write(out)
    else:
        sys.stdout.write(out)


def has_conditions(total):
    return any(e.get("conditions") for v in total.values() for e in v)


def dedupe(entries):
    """A client sees one entry per name (a later registration replaces an earlier one)."""
    by = {}
    for e in entries:
        if e["name"] in by:
            e = dict(e, also_registered_at=by[e["name"]].get("also_registered_at", []) + [by[e["name"]]["site"]])
        by[e["name"]] = e
    return [by[k] for k in sorted(by)]


def load_review(path, pyproject, top):
    if not path:
        return {}
    with open(path, encoding="utf-8") as f:
        allc = json.load(f)
    name = pyproject.get("project", {}).get("name") or top.rsplit("-", 1)[0]
    version = top.rsplit("-", 1)[1] if top and "-" in top else ""
    return allc.get(f"{name}@{version}", {})


def apply_corrections(truth, path, reader=None):
    with open(path, encoding="utf-8") as f:
        allc = json.load(f)
    key = f"{truth['name']}@{truth['version']}"
    entry = allc.get(key)
    if not entry:
        return
    if entry.get("assume"):
        truth["assumptions"] = entry["assume"]
    kinds = {"tool": "tools", "prompt": "prompts", "resource": "resources", "resource_template": "resource_templates"}
    for c in entry.get("corrections", []):
        op = c["op"]
        if op == "set":
            for k, v in c["fields"].items():
                truth[k] = v
        elif op == "add":
            lst = truth[kinds[c.get("kind", "tool")]]
            for e in c["entries"]:
                lst[:] = [x for x in lst if x["name"] != e["name"]] + [dict(e, added_by_review=True)]
            lst.sort(key=lambda x: x["name"])
        elif op == "remove":
            lst = truth[kinds[c.get("kind", "tool")]]
            names = set(c["names"])
            missing = names - {x["name"] for x in lst}
            if missing:
                raise SystemExit(f"{key}: correction removes names not in the output: {sorted(missing)}")
            lst[:] = [x for x in lst if x["name"] not in names]
        elif op == "rename":
            lst = truth[kinds[c.get("kind", "tool")]]
            for x in lst:
                if x["name"] in c["map"]:
                    x["name"] = c["map"][x["name"]]
                    x["renamed_by_review"] = True
            lst.sort(key=lambda x: x["name"])
        elif op == "describe":
            lst = truth[kinds[c.get("kind", "tool")]]
            for x in lst:
                if x["name"] in c["descriptions"]:
                    x["description"] = c["descriptions"][x["name"]]
                    x["description_by_review"] = True
        elif op == "dismiss":
            sites = set(c["sites"])
            stale = sites - {u["site"] for u in truth["undecided"]}
            if stale:
                raise SystemExit(f"{key}: correction dismisses sites that are not undecided: {sorted(stale)}")
            truth["undecided"] = [u for u in truth["undecided"] if u["site"] not in sites]
            truth.setdefault("dismissed", []).extend(sorted(sites))
        elif op == "describe_from_constant":
            lst = truth[kinds[c.get("kind", "tool")]]
            for x in lst:
                if x["name"] in c["constants"]:
                    mod, const = c["constants"][x["name"]].rsplit(":", 1)
                    v = reader.lookup(reader.modules[mod], const, [], 0) if mod in reader.modules else None
                    if not isinstance(v, str):
                        raise SystemExit(f"{key}: {mod}:{const} is not a literal string: {v}")
                    x["description"] = v
                    x["description_by_review"] = f"{mod}:{const}"
                    x.pop("description_unread", None)
        else:
            raise SystemExit(f"{key}: unknown correction op {op}")
        truth["corrections"].append({k: v for k, v in c.items() if k not in ("entries",)} | ({"entries": [e["name"] for e in c["entries"]]} if "entries" in c else {}))
    if "review" in entry:
        truth["review"] = entry["review"]


if __name__ == "__main__":
    main()
