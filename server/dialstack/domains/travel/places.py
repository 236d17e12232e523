"""The cities and airports of a travel database, and the names that point at them.

Cities are reference data: written once when the database file is built, never changed by a
tool. Reading them and indexing their names (folded names, codes, aliases, airports) cost
more than the SQL of a flight search, and every search resolves two places, so each
connection keeps one :class:`Places` (:func:`places`). A database file rebuilt in place is
reopened on a new connection (``connection.TravelDatabase`` checks the file's identity), so
an index never outlives the file it was read from. Nothing about bookings, seats or prices
is kept here.
"""

from __future__ import annotations

import difflib
import json
import re
import sqlite3
import unicodedata
from dataclasses import dataclass, field
from typing import Any

from .errors import AmbiguousCity, UnknownCity


@dataclass(frozen=True)
class CityRecord:
    city_id: int
    name: str
    code: str
    country: str
    region: str
    airports: tuple[tuple[str, str], ...]  # (code, name)
    aliases: tuple[str, ...]

    def as_item(self) -> dict[str, Any]:
        return {
            "city": self.name,
            "code": self.code,
            "country": self.country,
            "airports": [{"code": code, "name": name} for code, name in self.airports],
            "aliases": list(self.aliases),
        }


def load_cities(conn: sqlite3.Connection) -> list[CityRecord]:
    """Every city of the database, read now (see :func:`places` for the connection's index)."""
    airports: dict[int, list[tuple[str, str]]] = {}
    for row in conn.execute("SELECT code, city_id, name FROM airports ORDER BY rowid"):
        airports.setdefault(row["city_id"], []).append((row["code"], row["name"]))
    return [
        CityRecord(r["city_id"], r["name"], r["code"], r["country"], r["region"],
                   tuple(airports.get(r["city_id"], ())), tuple(json.loads(r["aliases"])))
        for r in conn.execute("SELECT * FROM cities ORDER BY city_id")
    ]


def fold(text: str) -> str:
    """Lower case ASCII words joined by single spaces: how a place's names are compared."""
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", " ", plain.lower()).strip()


Hit = tuple[CityRecord, "str | None"]  # a city and the airport named, if one was


@dataclass(frozen=True)
class Places:
    """The cities of one database and every folded name that points at one (or several)."""

    cities: tuple[CityRecord, ...]
    names: dict[str, tuple[Hit, ...]] = field(repr=False)
    first_names: dict[str, tuple[CityRecord, ...]] = field(repr=False)  # 'portland' -> both Portlands

    @classmethod
    def read(cls, conn: sqlite3.Connection) -> Places:
        cities = tuple(load_cities(conn))
        names: dict[str, list[Hit]] = {}
        for city in cities:
            for label in (city.name, city.code, *city.aliases):
                names.setdefault(fold(label), []).append((city, None))
            for code, airport in city.airports:
                names.setdefault(fold(code), []).append((city, code))
                names.setdefault(fold(airport), []).append((city, code))
                names.setdefault(fold(f"{city.name} {airport}"), []).append((city, code))
        first: dict[str, list[CityRecord]] = {}
        for city in cities:
            first.setdefault(fold(city.name.split(",")[0]), []).append(city)
        return cls(cities, {k: tuple(v) for k, v in names.items()}, {k: tuple(v) for k, v in first.items()})

    def resolve(self, text: str) -> Hit:
        """The city named by ``text`` (name, alias, city or airport code, airport name) and the airport, if one was named.

        Raises :class:`AmbiguousCity` for names shared by several cities (Portland) and
        :class:`UnknownCity` for places we do not fly to.
        """
        wanted = fold(text)
        if not wanted:
            raise UnknownCity("Please name a city or airport (for example 'Paris' or 'JFK').")
        hits: tuple[Hit, ...] = self.names.get(wanted, ())
        if not hits:
            hits = tuple((c, None) for c in self.first_names.get(wanted, ()))
        if not hits:
            close = difflib.get_close_matches(wanted, list(self.names), n=3, cutoff=0.82)
            hits = tuple(hit for label in close[:1] for hit in self.names[label])
        distinct = {city.city_id: (city, airport) for city, airport in hits}
        if len(distinct) == 1:
            return next(iter(distinct.values()))
        if len(distinct) > 1:
            options = [c.name.split(", ", 1)[-1] if "," in c.name else c.name for c, _ in distinct.values()]
            raise AmbiguousCity(f"{text.strip()} — {' or '.join(options)}?")
        raise UnknownCity(f"Sorry, we don't fly to {text.strip()}. Ask me 'what cities do you fly to?' to see the list.")


class PlacesConnection(sqlite3.Connection):
    """A connection that keeps its database's :class:`Places` once read (``connection._connect`` opens these)."""

    places: Places | None = None


def places(conn: sqlite3.Connection) -> Places:
    """The cities of ``conn``'s database: kept on a :class:`PlacesConnection` from its first use while it is
    open (its users take it in turns under ``TravelDatabase``'s lock), read anew on any other connection."""
    if not isinstance(conn, PlacesConnection):
        return Places.read(conn)
    if conn.places is None:
        conn.places = Places.read(conn)
    return conn.places


def resolve_city(conn: sqlite3.Connection, text: str) -> Hit:
    """:meth:`Places.resolve` on ``conn``'s database."""
    return places(conn).resolve(text)
