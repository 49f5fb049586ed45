"""Exact numbers a + b sqrt(d) (a, b fractions, d an integer above 1 and not a square, or b = 0): the
field an equilibrium of a game lives in when two bilinear conditions fix it (a quadratic's roots).

>>> root = Surd(Fraction(1, 2), Fraction(1, 2), 5)  # the golden ratio
>>> root * root == root + 1, root > Fraction(8, 5), str(root)
(True, True, '(1 + sqrt(5))/2')
>>> roots(Fraction(1), Fraction(-2), Fraction(-1))  # x^2 - 2x - 1
[Surd(Fraction(1, 1), Fraction(-1, 1), 2), Surd(Fraction(1, 1), Fraction(1, 1), 2)]
"""

from dataclasses import dataclass
from fractions import Fraction
from math import floor, isqrt, lcm

def square_free(n: int, limit: int = 1000) -> tuple[int, int]:
    """n = k^2 m, with the squares of the primes up to ``limit`` taken out of m and m = 1 when n is
    a square: enough to keep numbers small (two d that differ by a square factor still compare
    exactly, :func:`compare`), without factoring a large n.

    >>> square_free(72), square_free(10**40 + 2 * 10**20 + 1)
    ((6, 2), (100000000000000000001, 1))
    """
    root = isqrt(n)
    if root * root == n:
        return root, 1
    k, m, p = 1, n, 2
    while p <= limit and p * p <= m:
        while m % (p * p) == 0:
            m //= p * p
            k *= p
        p += 1
    root = isqrt(m)
    if root * root == m:
        return k * root, 1
    return k, m


@dataclass(frozen=True, eq=False)
class Surd:
    """a + b sqrt(d), exactly (d > 1 not a square)."""

    a: Fraction
    b: Fraction
    d: int

    @staticmethod
    def of(value: "Fraction | int | Surd") -> "Surd":
        return value if isinstance(value, Surd) else Surd(Fraction(value), Fraction(0), 1)

    def _field(self, other: "Surd") -> int:
        if self.b and other.b and self.d != other.d:
            raise ValueError(f"sqrt({self.d}) and sqrt({other.d}) in one computation")
        return self.d if self.b else other.d

    def __add__(self, other: "Fraction | int | Surd") -> "Surd":
        other = Surd.of(other)
        return Surd(self.a + other.a, self.b + other.b, self._field(other))

    __radd__ = __add__

    def __neg__(self) -> "Surd":
        return Surd(-self.a, -self.b, self.d)

    def __sub__(self, other: "Fraction | int | Surd") -> "Surd":
        return self + -Surd.of(other)

    def __rsub__(self, other: "Fraction | int | Surd") -> "Surd":
        return Surd.of(other) - self

    def __mul__(self, other: "Fraction | int | Surd") -> "Surd":
        other = Surd.of(other)
        d = self._field(other)
        return Surd(self.a * other.a + self.b * other.b * d, self.a * other.b + self.b * other.a, d)

    __rmul__ = __mul__

    def __truediv__(self, other: "Fraction | int | Surd") -> "Surd":
        other = Surd.of(other)
        norm = other.a * other.a - other.b * other.b * other.d
        if norm == 0:
            raise ZeroDivisionError("division by zero")
        return self * Surd(other.a / norm, -other.b / norm, other.d)

    def __rtruediv__(self, other: "Fraction | int | Surd") -> "Surd":
        return Surd.of(other) / self

    def sign(self) -> int:
        """-1, 0 or 1, exactly (comparing squares)."""
        sign_a, sign_b = (self.a > 0) - (self.a < 0), (self.b > 0) - (self.b < 0)
        if sign_b == 0 or sign_a == sign_b:
            return sign_a or sign_b
        if sign_a == 0:
            return sign_b
        square_a, square_b = self.a * self.a, self.b * self.b * self.d
        return sign_a if square_a > square_b else sign_b if square_b > square_a else 0

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, (Surd, Fraction, int)):
            return NotImplemented
        return compare(self, other) == 0

    def __hash__(self) -> int:
        return hash((self.a, self.b, self.d if self.b else 1))

    def __lt__(self, other: "Fraction | int | Surd") -> bool:
        return compare(self, other) < 0

    def __le__(self, other: "Fraction | int | Surd") -> bool:
        return compare(self, other) <= 0

    def __gt__(self, other: "Fraction | int | Surd") -> bool:
        return compare(self, other) > 0

    def __ge__(self, other: "Fraction | int | Surd") -> bool:
        return compare(self, other) >= 0

    def __floor__(self) -> int:
        """The greatest integer at most this number, exactly: sqrt(b^2 d) to enough bits by the
        integer square root, then at most a step or two checked exactly."""
        if not self.b:
            return floor(self.a)
        square = self.b * self.b * self.d
        bits = max(64, 2 * (abs(self.a).numerator.bit_length() - abs(self.a).denominator.bit_length()) + 64)
        root = Fraction(isqrt(floor(square * 4**bits)), 2**bits)
        estimate = floor(self.a + (root if self.b > 0 else -root))
        while self < estimate:
            estimate -= 1
        while self >= estimate + 1:
            estimate += 1
        return estimate

    @property
    def rational(self) -> Fraction | None:
        return self.a if self.b == 0 else None

    def __float__(self) -> float:
        root: float = float(self.d) ** 0.5
        return float(self.a) + float(self.b) * root

    def __str__(self) -> str:
        if self.b == 0:
            return str(self.a)
        scale = lcm(self.a.denominator, self.b.denominator)
        a, b = int(self.a * scale), int(self.b * scale)
        text = (f"{a} " if a else "") + ("+ " if b > 0 and a else "- " if b < 0 and a else "-" if b < 0 else "")
        text += ("" if abs(b) == 1 else f"{abs(b)} ") + f"sqrt({self.d})"
        text = text.replace(f"{abs(b)} sqrt", f"{abs(b)}*sqrt") if abs(b) != 1 else text
        return f"({text})/{scale}" if scale != 1 else text

    def __repr__(self) -> str:
        return f"Surd({self.a!r}, {self.b!r}, {self.d})"

    def decimal(self, places: int = 10) -> str:
        """Rounded to ``places`` decimals (halves up), exactly: an estimate corrected by exact comparisons."""
        scaled = self * 10**places
        rounded = round(float(scaled))
        while scaled - Fraction(2 * rounded + 1, 2) >= 0:
            rounded += 1
        while scaled - Fraction(2 * rounded - 1, 2) < 0:
            rounded -= 1
        whole, part = divmod(abs(rounded), 10**places)
        return f"{'-' if rounded < 0 else ''}{whole}.{part:0{places}d}"


Exact = Fraction | Surd
"""A number of a solution: rational, or with one square root."""


def compare(first: "Fraction | int | Surd", second: "Fraction | int | Surd") -> int:
    """-1, 0 or 1 as ``first`` is below, at or above ``second``, exactly, even when their square
    roots differ: u - v with u = p + q sqrt(m), v = r sqrt(n) has the sign of u^2 - v^2 (one
    square root) times that of u + v.

    >>> compare(Surd(Fraction(0), Fraction(1), 2), Surd(Fraction(0), Fraction(1), 3)), compare(Surd(Fraction(1), Fraction(1), 2), Surd(Fraction(0), Fraction(1), 6))
    (-1, -1)
    """
    one, two = Surd.of(first), Surd.of(second)
    if not one.b or not two.b or one.d == two.d:
        return (one - two).sign()
    u = Surd(one.a - two.a, one.b, one.d)
    v = Surd(Fraction(0), two.b, two.d)
    sign_u, sign_v = u.sign(), v.sign()
    if sign_u != sign_v or sign_u == 0:
        return (sign_u > sign_v) - (sign_u < sign_v)
    squares = Surd(u.a * u.a + u.b * u.b * u.d - v.b * v.b * v.d, 2 * u.a * u.b, u.d).sign()
    return squares * sign_u


def roots(a: Fraction, b: Fraction, c: Fraction) -> list["Fraction | Surd"]:
    """The real roots of a x^2 + b x + c (a line when a = 0), ascending, exactly."""
    if a == 0:
        return [] if b == 0 else [-c / b]
    discriminant = b * b - 4 * a * c
    if discriminant < 0:
        return []
    scale = discriminant.denominator
    k, m = square_free(discriminant.numerator * scale)
    half = 1 / (2 * a)
    if m == 1:
        found = sorted({(-b + sign * Fraction(k, scale)) * half for sign in (-1, 1)})
        return list(found)
    low, high = Surd(-b * half, -Fraction(k, scale) * half, m), Surd(-b * half, Fraction(k, scale) * half, m)
    return [low, high] if low < high else [high, low]
