"""Reading JSON answers field by field, typed, naming the path of the first field that is wrong.

Unknown fields are ignored (the API may add some: a reader ignores what it does not know).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast


class Fields:
    """One JSON object at ``path`` (``profile.streak``), read field by field."""

    def __init__(self, value: object, path: str) -> None:
        if not isinstance(value, Mapping):
            raise ValueError(f"{path}: expected an object, got {_kind(value)}")
        self.object = cast(Mapping[str, object], value)
        self.path = path

    def _at(self, key: str) -> str:
        return f"{self.path}.{key}"

    def _required(self, key: str) -> object:
        if key not in self.object:
            raise ValueError(f"{self._at(key)}: missing")
        return self.object[key]

    def req_int(self, key: str) -> int:
        return integer(self._required(key), self._at(key))

    def opt_int(self, key: str) -> int | None:
        value = self.object.get(key)
        return None if value is None else integer(value, self._at(key))

    def req_str(self, key: str) -> str:
        return text(self._required(key), self._at(key))

    def opt_str(self, key: str) -> str | None:
        value = self.object.get(key)
        return None if value is None else text(value, self._at(key))

    def opt_bool(self, key: str) -> bool | None:
        value = self.object.get(key)
        if value is None:
            return None
        if not isinstance(value, bool):
            raise ValueError(f"{self._at(key)}: expected true or false, got {_kind(value)}")
        return value

    def obj(self, key: str) -> Fields:
        return Fields(self._required(key), self._at(key))

    def raw(self, key: str) -> object:
        return self._required(key)

    def opt_raw(self, key: str) -> object | None:
        return self.object.get(key)

    def array(self, key: str) -> list[object]:
        value = self._required(key)
        if not isinstance(value, list):
            raise ValueError(f"{self._at(key)}: expected a list, got {_kind(value)}")
        return cast(list[object], value)

    def mapping(self, key: str) -> dict[str, Any]:
        value = self._required(key)
        if not isinstance(value, Mapping):
            raise ValueError(f"{self._at(key)}: expected an object, got {_kind(value)}")
        return dict(cast(Mapping[str, Any], value))


def integer(value: object, path: str) -> int:
    # JSON true is no number, though Python's bool is an int.
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{path}: expected an integer, got {_kind(value)}")
    return value


def text(value: object, path: str) -> str:
    if not isinstance(value, str):
        raise ValueError(f"{path}: expected a string, got {_kind(value)}")
    return value


def _kind(value: object) -> str:
    if value is None:
        return "null"
    shown = repr(value)
    return f"{type(value).__name__} {shown[:40]}{'…' if len(shown) > 40 else ''}"
