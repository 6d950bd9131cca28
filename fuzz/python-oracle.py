"""Python's reading of the programs the fuzz harness generates (fuzz/programs.fuzz.ts).

Reads a JSON list of cases {"input": path, "output": path or null} and prints a JSON list, one
entry per case: whether Python parses the input (and the output), the kernel functions of the
input (a @pl.function method of a @pl.program class, or a function with a decorator spelled with
`jit`), and whether the output holds the same program as the input once the statements ptolog
inserts (calls of `*.system.fence`, `*.system.cacheinvalid`, `*.system.task_dummy`) and the
`pl.func_attr` statements that declare only a cache policy (the pass removes them) are taken
out, the calls ptolog hoists out of a `return` or a `pl.yield_` (`x__tmp_v0 = f(...)` before
them) put back, and the keywords `deps=` and `cache=` and the entries of `func_attr(...)` are
ignored.
"""
import ast
import json
import re
import sys

INSERTED = {"fence", "cacheinvalid", "task_dummy"}


def dotted(e):
    if isinstance(e, ast.Call):
        e = e.func
    parts = []
    while isinstance(e, ast.Attribute):
        parts.append(e.attr)
        e = e.value
    if isinstance(e, ast.Name):
        parts.append(e.id)
    return list(reversed(parts))


def kernels(tree):
    out = []

    def visit(node, in_program):
        for ch in ast.iter_child_nodes(node):
            if isinstance(ch, ast.ClassDef):
                prog = any(dotted(d)[-1:] == ["program"] for d in ch.decorator_list)
                visit(ch, prog)
            elif isinstance(ch, (ast.FunctionDef, ast.AsyncFunctionDef)):
                names = [dotted(d) for d in ch.decorator_list]
                if (in_program and any(n[-1:] == ["function"] for n in names)) or any("jit" in n for n in names):
                    first = min([d.lineno for d in ch.decorator_list] + [ch.lineno])
                    out.append({"name": ch.name, "first": first, "line": ch.lineno, "end": ch.end_lineno})
                visit(ch, False)
            else:
                visit(ch, False)

    visit(tree, False)
    return out


def inserted(s):
    v = s.value if isinstance(s, (ast.Expr, ast.Assign)) else None
    if isinstance(v, ast.Call):
        d = dotted(v.func)
        return len(d) >= 2 and d[-2] == "system" and d[-1] in INSERTED
    return False


# The names the hoist edit binds (`<name>__tmp_v<N>`), each assigned once and read once.
HOISTED = re.compile(r"__tmp_v\d+$")


class Unhoist(ast.NodeTransformer):
    """Each function's hoisted calls put back where their name is read (the hoist edit undone)."""

    def visit_FunctionDef(self, fn):
        values = {}
        for node in ast.walk(fn):
            for field in ("body", "orelse", "finalbody"):
                b = getattr(node, field, None)
                if not (isinstance(b, list) and b and isinstance(b[0], ast.stmt)):
                    continue
                keep = []
                for st in b:
                    t = st.targets[0] if isinstance(st, ast.Assign) and len(st.targets) == 1 else None
                    if isinstance(t, ast.Name) and HOISTED.search(t.id) and t.id not in values:
                        values[t.id] = st.value
                    else:
                        keep.append(st)
                setattr(node, field, keep)

        class Put(ast.NodeTransformer):
            def visit_Name(self, n):
                return values.get(n.id, n) if isinstance(n.ctx, ast.Load) else n

        return Put().visit(fn) if values else fn

    visit_AsyncFunctionDef = visit_FunctionDef


def cache_policy_only(s):
    """A `pl.func_attr({...})` statement whose dict holds nothing but "cache_policy": the cache-policy
    pass removes that entry, and with it the statement (nothing is left to declare)."""
    v = s.value if isinstance(s, ast.Expr) else None
    if not (isinstance(v, ast.Call) and dotted(v.func)[-1:] == ["func_attr"] and len(v.args) == 1 and not v.keywords):
        return False
    d = v.args[0]
    return isinstance(d, ast.Dict) and all(isinstance(k, ast.Constant) and k.value == "cache_policy" for k in d.keys)


class Shape(ast.NodeTransformer):
    def generic_visit(self, node):
        # (Before the children: a func_attr call's arguments are cleared when it is visited.)
        for field in ("body", "orelse", "finalbody"):
            b = getattr(node, field, None)
            if isinstance(b, list) and b and isinstance(b[0], ast.stmt):
                setattr(node, field, [s for s in b if not inserted(s) and not cache_policy_only(s)])
        super().generic_visit(node)
        return node

    def visit_Call(self, c):
        self.generic_visit(c)
        # (`deps=` lists are replaced, `cache=` added or replaced: neither is compared.)
        c.keywords = [k for k in c.keywords if k.arg not in ("deps", "cache")]
        if dotted(c.func)[-1:] == ["func_attr"]:
            c.args = []
        return c


def parse(path):
    try:
        with open(path, "rb") as f:
            return ast.parse(f.read())
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        # (Nested too deeply for Python's own parser: Python rejects it too.)
        return None


def main():
    with open(sys.argv[1]) as f:
        cases = json.load(f)
    result = []
    for case in cases:
        tree = parse(case["input"])
        entry = {"valid": tree is not None, "kernels": kernels(tree) if tree is not None else []}
        if case.get("output"):
            out = parse(case["output"])
            entry["outputValid"] = out is not None
            if tree is not None and out is not None:
                try:
                    entry["sameShape"] = ast.dump(Shape().visit(Unhoist().visit(tree))) == ast.dump(Shape().visit(Unhoist().visit(out)))
                except RecursionError:
                    entry["sameShape"] = None  # not decided (nested too deeply to compare)
        result.append(entry)
    json.dump(result, sys.stdout)


main()
