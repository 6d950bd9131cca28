/** Every error code, located precisely, with a one-sentence message and a code frame. */
import { describe, expect, it } from 'vitest';
import { parseModule } from '../../src/frontend/index.js';
import { renderDiagnostic } from '../../src/report/text.js';
import { diagOf, where } from './helpers.js';

const HEAD = 'import pypto.language as pl\n@pl.program\nclass P:\n    @pl.function\n    def f(self, x: pl.Scalar[pl.INT32]):\n';
const err = (body: string) => {
  const src = HEAD + body;
  const d = diagOf(() => parseModule(src, 'e.py'));
  const loc = d.location!;
  return { d, code: d.code, msg: d.message, at: where(d), text: src.slice(loc.start, loc.end) };
};

describe('syntax errors', () => {
  it.each([
    ['        for i in pl.range(4)\n            pass\n', '6:29', "expected ':' after the for header"],
    ['        if x\n            pass\n', '6:13', "expected ':' after the if condition"],
    ['        x = \n', '6:12', 'expected an expression'],
    ['        x = 1 2\n', '6:15', 'expected end of line'],
    ['        x = 1\n          y = 2\n', '7:11', 'unexpected indent'],
    ['        if x:\n        y = 1\n', '7:9', 'expected an indented block'],
    ['        else:\n            y = 1\n', '6:9', "'else' without a matching 'if' at this indentation"],
    ['        return )\n', '6:16', 'expected an expression or end of line'],
    ['        x = (a, b\n        y = 2\n', '6:13', "'(' is never closed"],
    ['        x = "abc\n', '6:13', 'this string literal is never closed'],
    ['        x = 0777\n', '6:13', "'0777' is not a valid number"],
    ['        f(a=1, b)\n', '6:16', 'a positional argument cannot follow a keyword argument'],
    ['        pl.store(x, [0, 0], y))\n', '6:31', 'expected end of line'],
  ])('%j -> %s %s', (body, at, msg) => {
    const e = err(body);
    expect(e.code).toBe('syntax-error');
    expect(e.msg).toBe(msg);
    expect(e.at).toBe(at);
  });

  it('renders file:line:col, a code frame with a caret, and one sentence', () => {
    const { d } = err('        for i in pl.range(4)\n            pass\n');
    expect(renderDiagnostic(d)).toBe(
      [
        "e.py:6:29: error[syntax-error]: expected ':' after the for header",
        '  5 |     def f(self, x: pl.Scalar[pl.INT32]):',
        '> 6 |         for i in pl.range(4)',
        '    |                             ^',
        '  7 |             pass',
      ].join('\n'),
    );
  });

  it('reports an error in the class header and a class without body', () => {
    const d = diagOf(() => parseModule('import pypto.language as pl\n@pl.program\nclass P\n    pass\n', 'c.py'));
    expect([d.code, d.message, where(d)]).toEqual(['syntax-error', "expected ':' after the class header", '3:8']);
    const d2 = diagOf(() => parseModule('@pl.program\nclass P:\nx = 1\n', 'c.py'));
    expect([d2.code, where(d2)]).toEqual(['syntax-error', '2:9']);
  });
});

describe('function header errors', () => {
  const base = 'import pypto.language as pl\n@pl.program\nclass P:\n    @pl.function\n';
  it.each([
    ['    def f(self)\n        pass\n', '5:16', "expected ':' after the function signature"],
    [
      '    def f(self):\n    @pl.function\n    def g(self):\n        pass\n',
      '5:17',
      'expected an indented block after the function signature',
    ],
    ['    def f(self): pass\n        x = 1\n', '6:9', 'unexpected indent'],
    ['    def f(self, a: pl.Tensor[[1], pl.FP32]:\n        pass\n', '5:10', "'(' is never closed"],
    ['    def f(self, a: pl.Tensor[[1], pl.FP32] b):\n        pass\n', '5:44', "expected ')' or ','"],
  ])('%j', (src, at, msg) => {
    const d = diagOf(() => parseModule(base + src, 'h.py'));
    expect([d.code, where(d), d.message]).toEqual(['syntax-error', at, msg]);
  });
});

describe('pl.func_attr prologue', () => {
  const base = 'import pypto.language as pl\n@pl.program\nclass P:\n    @pl.function\n    def f(self):\n';
  it.each([
    ['        pl.func_attr({"a": 1})\n        pl.func_attr({"a": 2})\n', '7:9', "duplicate function attribute 'a'"],
    ['        pl.func_attr({"a": 1, "a": 2})\n', '6:9', "duplicate function attribute 'a'"],
    ['        pl.func_attr({"a": 1})\n        pl.func_attr(a=2)\n', '7:9', 'pl.func_attr takes one dict'],
    ['        pl.func_attr({1: 2})\n', '6:23', 'key must be a string literal'],
    ['        x = 1\n        pl.func_attr({"a": 1})\n', '7:9', 'must appear before every other statement'],
  ])('%j is rejected as PyPTO rejects it', (body, at, msg) => {
    const d = diagOf(() => parseModule(base + body, 'a.py'));
    expect([d.code, where(d)]).toEqual(['unsupported-construct', at]);
    expect(d.message).toContain(msg);
  });

  it('merges every leading line, whichever keys it holds, and takes `...` after them', () => {
    const text = `${base.replace('@pl.function\n', '@pl.function(type=pl.FunctionType.AIV, external_source="k.cpp")\n')}        pl.func_attr({"a": 1})\n        pl.func_attr({"b": pl.CachePolicy.BYPASS, "cache_policy": [(0, pl.CachePolicy.BYPASS)]})\n        ...\n`;
    const f = parseModule(text, 'a.py').programs[0]!.functions[0]!;
    expect(f.external).toBe(true);
    expect(f.body).toEqual([]);
    expect(f.attrs.map((d) => d.entries.map((e) => (e.key.kind === 'Str' ? e.key.value : '?')))).toEqual([['a'], ['b', 'cache_policy']]);
    // Only an entry whose payload stores the enum as integers (the op catalog's frontend_attr_int_enum) reads it so.
    const [b, cp] = f.attrs[1]!.entries;
    expect(b!.value.kind).toBe('Enum');
    expect(cp!.value).toMatchObject({
      kind: 'List',
      elts: [
        {
          kind: 'Tuple',
          elts: [
            { kind: 'Int', value: 0 },
            { kind: 'Int', value: 1 },
          ],
        },
      ],
    });
  });
});

describe('layout errors', () => {
  it('tab in indentation', () => {
    const e = err('\tx = 1\n');
    expect([e.code, e.msg, e.at]).toEqual(['tab-indent', 'indentation uses a tab; ptolog needs spaces', '6:1']);
  });

  it('a tab after spaces is located at the tab', () => {
    const e = err('        if x:\n        \ty = 1\n');
    expect([e.code, e.at]).toEqual(['tab-indent', '7:9']);
  });

  it('inconsistent dedent', () => {
    const e = err('        if x:\n            y = 1\n          z = 2\n');
    expect([e.code, e.at, e.text]).toEqual(['inconsistent-dedent', '8:1', '          ']);
    expect(e.msg).toBe('this line is dedented to a level that does not match any enclosing block');
  });

  it('inconsistent dedent at function-body level', () => {
    const e = err('        x = 1\n      y = 2\n');
    expect([e.code, e.at]).toEqual(['inconsistent-dedent', '7:1']);
  });

  it('tabs and errors outside programs are ignored', () => {
    const m = parseModule(`def f():\n\treturn "unterminated\n${HEAD}        return x\n`, 't.py');
    expect(m.programs.length).toBe(1);
  });
});

describe('unsupported constructs', () => {
  it.each([
    ['        f = lambda a: a\n', 'lambda a: a', 'lambda is not supported inside a @pl.program'],
    [
      '        x = [i for i in y]\n',
      '[i for i in y]',
      'list comprehensions are only read in a deps= list (which PyPTO unrolls); write the list out, or a pl.range loop',
    ],
    // A comprehension's `for` at the start of a physical line, and one next to a for statement.
    [
      '        x = [\n            i\n            for i in y\n        ]\n',
      '[\n            i\n            for i in y\n        ]',
      'list comprehensions are only read in a deps= list (which PyPTO unrolls); write the list out, or a pl.range loop',
    ],
    [
      '        for k in pl.range(4):\n            x = [i for i in y]\n',
      '[i for i in y]',
      'list comprehensions are only read in a deps= list (which PyPTO unrolls); write the list out, or a pl.range loop',
    ],
    ['        x = y if c else z\n', 'y if c else z', 'conditional expressions (x if c else y) are not supported inside a @pl.program'],
    ['        x = a[1:2:3]\n', ':3', "a slice step is not supported in a tensor or tile subscript; write 'start:stop' without a step"],
    ['        x += 1\n', 'x += 1', "augmented assignment '+=' is not supported; write x = x + ..."],
    ['        import os\n', 'import os', 'imports are not supported inside a @pl.program'],
    [
      '        try:\n            x = 1\n        except E:\n            pass\n',
      'try:',
      "'try' statements are not supported inside a @pl.program",
    ],
    ['        def g(self):\n            pass\n', 'def g(self):', 'nested function definitions are not supported inside a @pl.program'],
    [
      '        x = f"{y}"\n',
      'f"{y}"',
      'f-strings are not supported inside a @pl.program (but as an argument of pl.static_print / pl.static_assert)',
    ],
    [
      '        pl.tensor.add(x, f"{y}")\n',
      'f"{y}"',
      'f-strings are not supported inside a @pl.program (but as an argument of pl.static_print / pl.static_assert)',
    ],
    ['        x = a < b < c\n', 'a < b < c', 'chained comparisons are not supported; combine them with and'],
    ['        x = a in b\n', 'in', "the 'in' operator is not supported inside a @pl.program"],
    ['        a.b = 1\n', 'a.b', 'this assignment target is not supported; assign to a name, a tuple of names or name[index]'],
    [
      '        for x in items:\n            pass\n',
      'items',
      'a for loop must iterate over pl.range, pl.parallel, pl.unroll, pl.pipeline, pl.spmd, pl.split_aiv, pl.while_ or range',
    ],
    [
      '        with open(f) as g:\n            pass\n',
      'open(f)',
      'a with statement must open pl.scope, pl.manual_scope, pl.at, pl.spmd or pl.cluster',
    ],
    ['        pl.submit(k, x)\n', 'k', 'the first argument of pl.submit must be the submitted function, written self.<name>'],
    ['        a = pl.submit(self.k, deps=t)\n', 't', 'deps= must be a list, e.g. [tids]'],
    [
      '        x = 1\n        ...\n',
      '...',
      "'...' is only read as the whole body of a function (an external kernel or an abstract SubWorker); write pass for an empty block",
    ],
    ['        x = {1, 2}\n', '{1, 2}', 'set literals are not supported inside a @pl.program'],
    ['        x: int\n', 'x: int', 'an annotation without a value is not supported inside a @pl.program'],
    [
      '        for i in pl.range(4):\n            pass\n        else:\n            pass\n',
      'else:',
      "'else' on a for loop is not supported",
    ],
    ['        f(*a)\n', '*a', "'*' arguments are not supported inside a @pl.program"],
    ['        x = a = 1\n', 'x = a = 1', 'chained assignments (a = b = c) are not supported inside a @pl.program'],
  ])('%j', (body, text, msg) => {
    const e = err(body);
    expect(e.code).toBe('unsupported-construct');
    expect(e.msg).toBe(msg);
    expect(e.text).toBe(text);
  });

  it('functions need @pl.function (self only where PyPTO allows it); the class holds only functions', () => {
    const base = 'import pypto.language as pl\n@pl.program\nclass P:\n';
    const d1 = diagOf(() => parseModule(`${base}    def f(self):\n        pass\n`, 'u.py'));
    expect([d1.code, d1.message]).toEqual(['unsupported-construct', 'a function of a @pl.program needs a @pl.function decorator']);
    const d2 = diagOf(() => parseModule(`${base}    @staticmethod\n    def f(self):\n        pass\n`, 'u.py'));
    expect([d2.code, where(d2)]).toEqual(['unsupported-construct', '4:5']);
    const d3 = diagOf(() =>
      parseModule(`${base}    @pl.function(level=pl.Level.HOST, role=pl.Role.SubWorker)\n    def f(self, x):\n        pass\n`, 'u.py'),
    );
    expect([d3.code, d3.message, where(d3)]).toEqual([
      'unsupported-construct',
      "SubWorker function 'f' must not declare 'self'; declare it as a self-contained function inside @pl.program (remove the 'self' parameter)",
      '5:11',
    ]);
    const d4 = diagOf(() => parseModule(`${base}    X = 1\n`, 'u.py'));
    expect([d4.code, d4.message, where(d4)]).toEqual([
      'unsupported-construct',
      'only @pl.function methods can appear in a @pl.program class',
      '4:5',
    ]);
    const d5 = diagOf(() => parseModule('@pl.program\ndef f():\n    pass\n', 'u.py'));
    expect([d5.code, d5.message]).toEqual(['unsupported-construct', '@pl.program must decorate a class']);
    const d6 = diagOf(() => parseModule(`${base}    @pl.function(type=pl.FunctionType.Nope)\n    def f(self):\n        pass\n`, 'u.py'));
    expect([d6.code, where(d6)]).toEqual(['unsupported-construct', '4:23']);
  });
});

describe('range bounds are bound positionally, as Python and PyPTO bind them', () => {
  const loop = (call: string) => `        for i in ${call}:\n            pass\n`;
  it.each([
    ['pl.range(1, stop=8, step=3)', 'stop', 'write the bounds positionally: pl.range(1, 8, 3)'],
    ['pl.range(stop=8)', 'stop', 'write the bounds positionally: pl.range(8)'],
    ['pl.range(start=2, stop=8)', 'start', 'write the bounds positionally: pl.range(2, 8)'],
    ['pl.range(8, step=2)', 'step', 'write the bounds positionally: pl.range(8, STOP, 2)'],
    ['pl.range(step=2, stop=8)', 'step', 'write the bounds positionally: pl.range(0, 8, 2)'],
    ['pl.range(2, 8, 2, stop=9)', 'stop', "'stop' is also given positionally; keep one of them"],
    ['pl.unroll(2, 8, start=1)', 'start', "'start' is also given positionally; keep one of them"],
    ['pl.pipeline(1, stop=4, stage=2)', 'stop', 'write the bounds positionally: pl.pipeline(1, 4)'],
  ])('%s: a located error at the keyword', (call, kw, fix) => {
    const e = err(loop(call));
    expect(e.code).toBe('unsupported-construct');
    expect(e.text.startsWith(`${kw}=`)).toBe(true);
    expect(e.msg.endsWith(fix)).toBe(true);
  });

  it("Python's range takes no keywords at all", () => {
    expect(err(loop('range(1, stop=8)')).msg).toContain('range() takes no keyword arguments');
  });

  it.each([
    ['pl.range(8)', [0, 8, 1]],
    ['pl.range(2, 8)', [2, 8, 1]],
    ['pl.range(2, 8, 3)', [2, 8, 3]],
    ['pl.parallel(1, 8, 3, init_values=(x,))', [1, 8, 3]],
  ])('%s binds (start, stop, step) = %j', (call, want) => {
    const m = parseModule(`${HEAD}${loop(call)}`, 'r.py');
    const s = m.programs[0]!.functions[0]!.body[0]!;
    expect(s.kind === 'For' && s.args.map((a) => (a.kind === 'Int' ? a.value : null))).toEqual(want);
  });

  it('needs a stop', () => {
    expect(err(loop('pl.range()')).msg).toBe('pl.range() needs at least one argument (stop), e.g. pl.range(10)');
  });
});
