"""An index of an HTML page built with the standard library's parser: every element's
tag and attributes, the ids (with repeats), the links, scripts, styles and SVGs."""

from __future__ import annotations

from html.parser import HTMLParser

URL_ATTRIBUTES = frozenset({"src", "href", "xlink:href", "action", "formaction", "poster",
                            "srcset", "data", "background", "cite", "manifest"})
"""Attributes that make a browser fetch or navigate."""


class PageIndex(HTMLParser):
    """Parse a page and keep what the tests look at.

    Attributes:
        elements: (tag, attributes) in document order.
        ids: every id, in order (a repeated id appears twice).
        fragments: the targets of ``href="#..."`` links, without ``#``.
        styles: the text of every ``<style>`` element.
        scripts: the text of every inline ``<script>``.
    """

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=True)
        self.elements: list[tuple[str, dict[str, str]]] = []
        self.ids: list[str] = []
        self.fragments: list[str] = []
        self.styles: list[str] = []
        self.scripts: list[str] = []
        self._open: str | None = None
        self.feed(text)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = {name: value or "" for name, value in attrs}
        self.elements.append((tag, found))
        if "id" in found:
            self.ids.append(found["id"])
        for name in ("href", "xlink:href"):
            if found.get(name, "").startswith("#"):
                self.fragments.append(found[name][1:])
        self._open = tag if tag in ("style", "script") else None

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        self._open = None

    def handle_endtag(self, tag: str) -> None:
        self._open = None

    def handle_data(self, data: str) -> None:
        if self._open == "style":
            self.styles.append(data)
        elif self._open == "script":
            self.scripts.append(data)

    def tagged(self, tag: str) -> list[dict[str, str]]:
        """The attributes of every ``tag`` element."""
        return [attrs for name, attrs in self.elements if name == tag]

    def url_values(self) -> list[tuple[str, str, str]]:
        """(tag, attribute, value) of every attribute that names a resource or target."""
        return [(tag, name, value) for tag, attrs in self.elements
                for name, value in attrs.items() if name in URL_ATTRIBUTES]
