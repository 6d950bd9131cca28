"""Expressions: precedence and parentheses, unary operators, literals, containers, subscripts."""

import pypto.language as pl


@pl.program
class Exprs:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, a: pl.Scalar[pl.INT32], b: pl.Scalar[pl.INT32], c: pl.Scalar[pl.INT32], x: pl.Tensor[[4, 4], pl.FP32]):
        e1 = a + b * c
        e2 = (a + b) * c
        e3 = a - (b - c)
        e4 = (a - b) - c
        e5 = a ** b ** c
        e6 = (a ** b) ** c
        e7 = -a ** 2
        e8 = (-a) ** 2
        e9 = a ** -b
        e10 = - -a
        e11 = not a == b
        e12 = (not a) == b
        e13 = not (a and b) or c
        e14 = a and (b or c)
        e15 = (a < b) == (b < c)
        e16 = a | b & c ^ a
        e17 = (a | b) & c
        e18 = a << 1 + b >> 2
        e19 = ~a % 3 // 2
        e20 = ((a))
        e21 = a // b / c % 2
        e22 = a != b
        e23 = a >= b and a <= c or a > c
        i1 = 0x10
        i2 = 1_000
        f1 = 1.50
        f2 = 1e-3
        f3 = 2.
        f4 = .5
        s1 = 'it\'s'
        s2 = "tab\tnewline\n\\"
        s3 = "con" "cat"
        n1 = None
        t1 = True
        t2 = False
        l1 = []
        l2 = [1, [2, 3], (4,), ()]
        tp = (a, b)
        tp1 = a,
        d1 = {}
        d2 = {"k": 1, "nested": {"a": [1, 2]}}
        sub1 = x.shape[0]
        sub2 = x[a, b]
        sub3 = x[(a, b)]
        at1 = x.shape
        at2 = (a + b).bit_length
        call1 = pl.add(a, b)[0]
        m = -1
        m2 = -(1)
        m3 = a * -1
