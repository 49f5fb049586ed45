"""Immutable values and records as plain classes: what a frozen dataclass gives, without its cost at import.

A frozen dataclass execs the source of its generated methods (``__init__``, ``__repr__``,
``__eq__``, ``__hash__``, ``__setattr__``, ``__delattr__``) when its class is defined: about a
third of a millisecond a class, paid by every command's cold start for every class it imports.
A :class:`Value` has the same behaviour from one base: its fields are its ``__slots__`` (with
``"__dict__"`` among them where the class keeps cached properties), set once by its ``__init__``.
A :class:`Frozen` record is the same without equality (its fields hold arrays): compared by identity.

>>> class Pair(Value):
...     __slots__ = ("left", "right")
...     def __init__(self, left: int, right: int) -> None:
...         self._set(left, right)
>>> Pair(1, 2), Pair(1, 2) == Pair(1, 2), hash(Pair(1, 2)) == hash((1, 2)), Pair(1, 2) == (1, 2)
(Pair(left=1, right=2), True, True, False)
>>> Pair(1, 2).left = 3
Traceback (most recent call last):
dataclasses.FrozenInstanceError: cannot assign to field 'left'
"""

from collections.abc import Callable
from dataclasses import FrozenInstanceError
from operator import attrgetter


class Frozen:
    """A record that refuses any assignment once its ``__init__`` has set its fields (with
    :meth:`_set`), compared by identity: a frozen dataclass with ``eq=False``. Its cached
    properties (``"__dict__"`` among its slots) are set once, as a frozen dataclass's are."""

    __slots__: tuple[str, ...] = ()
    _names: tuple[str, ...] = ()

    def __init_subclass__(cls, **options: object) -> None:
        super().__init_subclass__(**options)
        cls._names = tuple(name for name in cls.__slots__ if name != "__dict__")

    def field_names(self) -> tuple[str, ...]:
        """Its fields' names, in order (as :func:`dataclasses.fields` names a dataclass's)."""
        return self._names

    def field_values(self) -> tuple[object, ...]:
        """Its fields' values, in order (as :func:`dataclasses.astuple` gives a dataclass's fields
        that hold no dataclass)."""
        return tuple(getattr(self, name) for name in self._names)

    def _set(self, *values: object) -> None:
        """Set the fields, in the order of ``__slots__`` (from ``__init__``)."""
        for name, value in zip(self._names, values, strict=True):
            object.__setattr__(self, name, value)

    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        """Pickled as its fields (no cached property travels with it)."""
        return _rebuilt, (type(self), self.field_values())


def _rebuilt(kind: type[Frozen], values: tuple[object, ...]) -> Frozen:
    """A :class:`Frozen` record unpickled: its fields set again, its ``__init__`` not called."""
    record = kind.__new__(kind)
    record._set(*values)
    return record


class Value(Frozen):
    """An immutable value, as a frozen dataclass is: equal to a value of its own class with equal
    fields, hashed as the tuple of its fields, its ``repr`` the call that builds it, refusing any
    assignment, and pickled as that call (so no cached property travels with it)."""

    __slots__: tuple[str, ...] = ()
    _getter: Callable[[object], tuple[object, ...]]

    def __init_subclass__(cls, **options: object) -> None:
        """Its fields' names and a getter of their values (C's ``attrgetter``: no code is generated)."""
        super().__init_subclass__(**options)
        names = cls._names
        getter: Callable[[object], tuple[object, ...]]
        if len(names) > 1:
            getter = attrgetter(*names)
        elif names:
            single = attrgetter(names[0])
            getter = lambda value: (single(value),)  # noqa: E731
        else:
            getter = lambda value: ()  # noqa: E731
        cls._getter = staticmethod(getter)

    def _fields(self) -> tuple[object, ...]:
        return self._getter(self)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is self.__class__:
            return self._getter(self) == self._getter(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._getter(self))

    def __repr__(self) -> str:
        return f"{type(self).__qualname__}({', '.join(f'{name}={getattr(self, name)!r}' for name in self.field_names())})"

    def __reduce__(self) -> tuple[type, tuple[object, ...]]:
        return type(self), self._fields()


class OrderedValue(Value):
    """A :class:`Value` ordered by its fields, as ``@dataclass(order=True)`` orders: against a value
    of its own class only."""

    __slots__ = ()

    def _against(self, other: object) -> tuple[object, ...] | None:
        return other._fields() if isinstance(other, Value) and other.__class__ is self.__class__ else None

    def __lt__(self, other: object) -> bool:
        fields = self._against(other)
        return NotImplemented if fields is None else self._fields() < fields

    def __le__(self, other: object) -> bool:
        fields = self._against(other)
        return NotImplemented if fields is None else self._fields() <= fields

    def __gt__(self, other: object) -> bool:
        fields = self._against(other)
        return NotImplemented if fields is None else self._fields() > fields

    def __ge__(self, other: object) -> bool:
        fields = self._against(other)
        return NotImplemented if fields is None else self._fields() >= fields
