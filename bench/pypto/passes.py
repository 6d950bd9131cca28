#!/usr/bin/env python3
"""PyPTO's own InsertCommFence against ptolog's `apply`, marker by marker, on kernel files.

For each file: import it as Python does (as a package module when its folder is a package),
take every `@pl.program` and every non-inline `@pl.jit` function (specialised from its
annotations, scalars left at run time), run PyPTO's InlineFunctions, the outlining passes and
InsertCommFence as the Default pipeline orders them, and count the markers PyPTO inserted:
whole-GM `cacheinvalid()`, region `cacheinvalid(t, ...)` and `fence()`. ptolog's count is what its
`apply --pass insert-comm-fence --write` adds to a copy of the file's folder (a helper's module
too). Needs an importable PyPTO (`PYTHONPATH=<pypto>/python`); nothing here builds it.
A file PyPTO refuses is listed with its error (ptolog's fixtures include code PyPTO rejects).

    npm run build && PYTHONPATH=... python3 bench/pypto/passes.py specs/insert_comm_fence/*.py
"""

import importlib
import importlib.util
import inspect
import json
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile
import types

ROOT = pathlib.Path(__file__).resolve().parents[2]
PREFIX = ['inline_functions', 'unroll_loops', 'ctrl_flow_transform', 'convert_to_ssa', 'simplify',
          'normalize_stmt_structure', 'flatten_call_expr', 'outline_hierarchy_scopes',
          'outline_incore_scopes', 'outline_cluster_scopes']
KINDS = ('cacheinvalid()', 'cacheinvalid(t)', 'fence()')


def count(text):
    """Markers in a text, by kind."""
    return (len(re.findall(r'system\.cacheinvalid\(\s*\)', text)),
            len(re.findall(r'system\.cacheinvalid\(\s*[^)\s]', text)),
            len(re.findall(r'system\.fence\(', text)))


def load(path):
    """Import a kernel file the way Python would from its project."""
    if (path.parent / '__init__.py').exists():
        sys.path.insert(0, str(path.parent.parent))
        return importlib.import_module(f'{path.parent.name}.{path.stem}')
    sys.path.insert(0, str(path.parent))
    for extra in ('vendor',):
        sys.path.insert(0, str(path.parent / extra))
    spec = importlib.util.spec_from_file_location(path.stem, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def programs(mod):
    """(name, ir.Program) of every program and every non-inline JIT entry of a module."""
    import pypto.language as pl
    from pypto import ir
    from pypto.jit.decorator import JITFunction
    for name, v in vars(mod).items():
        if isinstance(v, ir.Program):
            yield name, v
        elif isinstance(v, JITFunction) and v._func_type != 'inline' and v.__module__ == mod.__name__:
            kw = {p: pl.RUNTIME for p, prm in inspect.signature(v._func).parameters.items() if 'Scalar' in str(prm.annotation)}
            spec, _ = v._resolve_specialization((), kw, allow_signature_mode=True)
            pre, _ = v._compile_to_program_with_rename_map(spec.tensor_meta, spec.scalar_values, spec.scalar_dtypes, spec.per_func_dyn, pl)
            yield name, pre


def pypto_markers(path):
    """Markers PyPTO's passes insert into the programs of one file (summed)."""
    from pypto import ir
    from pypto.pypto_core import passes
    total = [0, 0, 0]
    for _, prog in programs(load(path)):
        before = count(ir.python_print(prog))
        with passes.PassContext([]):
            for name in PREFIX:
                prog = getattr(passes, name)()(prog)
            prog = passes.insert_comm_fence()(prog)
        after = count(ir.python_print(prog))
        total = [t + a - b for t, a, b in zip(total, after, before)]
    return tuple(total)


def ptolog_markers(path):
    """Markers ptolog's `apply --write` adds, over every file it writes (a copy of the folder)."""
    with tempfile.TemporaryDirectory() as tmp:
        copy = pathlib.Path(tmp) / path.parent.name
        shutil.copytree(path.parent, copy, ignore=shutil.ignore_patterns('*.out', '*.err'))
        before = {f: count(f.read_text()) for f in copy.rglob('*.py')}
        r = subprocess.run(['node', str(ROOT / 'bin/ptolog.js'), 'apply', '--pass', 'insert-comm-fence', '--write',
                            str(copy / path.name)], capture_output=True, text=True, cwd=copy)
        if r.returncode == 2:
            return f'exit 2: {(r.stderr.strip().splitlines() or ["?"])[0][:120]}'
        total = [0, 0, 0]
        for f, b in before.items():
            total = [t + a - x for t, a, x in zip(total, count(f.read_text()), b)]
        return tuple(total)


def _torch_attr(name):
    """A dtype-like placeholder for `torch.<name>`; dunders stay missing as on a real module."""
    if name.startswith('__'):
        raise AttributeError(name)
    return type(name, (), {})


def main(paths):
    if 'torch' not in sys.modules:
        try:
            import torch  # noqa: F401
        except ImportError:  # PyPTO imports torch for run-time tensors; the IR passes never use it
            stub = types.ModuleType('torch')
            stub.Tensor = type('Tensor', (), {})
            stub.__getattr__ = _torch_attr
            sys.modules['torch'] = stub
    rows, same = [], 0
    for p in paths:
        path = pathlib.Path(p).resolve()
        try:
            ours = pypto_markers(path)
        except Exception as e:  # a file PyPTO refuses: its error, first line
            ours = f'PyPTO refuses: {type(e).__name__}: {(str(e).splitlines() or [""])[0][:120]}'
        theirs = ptolog_markers(path)
        agree = ours == theirs
        same += agree
        rows.append({'file': p, 'pypto': ours, 'ptolog': theirs, 'agree': agree})
    for r in rows:
        print(json.dumps(r))
    print(f'# {same} of {len(rows)} files: the same markers ({", ".join(KINDS)})')


if __name__ == '__main__':
    main(sys.argv[1:])
