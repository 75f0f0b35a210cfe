"""Token prices by model, from a file the user gives, and the cost of a trial's calls.

The file is YAML or JSON, one entry per model, prices per million tokens::

    gpt-4o-mini: {input_per_million: "0.15", output_per_million: "0.60"}
    qwen2.5-0.5b-instruct: {input_per_million: 0, output_per_million: 0, currency: EUR}

Prices are read as :class:`~decimal.Decimal` (write them as strings to keep every
digit; numbers are converted through their shortest decimal form). A model missing from
the table has no cost (``None``), never a cost of zero.

Example:
    >>> table = CostTable.model_validate(
    ...     {"m": {"input_per_million": "2", "output_per_million": "8"}})
    >>> table.cost("m", prompt_tokens=1000, completion_tokens=500)
    Money(amount=Decimal('0.006'), currency='USD')
"""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path

import yaml
from pydantic import BaseModel, ConfigDict, Field, RootModel, ValidationError, field_validator

from remit.actors.llm.errors import LlmConfigError
from remit.catalogue.money import Money

__all__ = ["CostTable", "ModelPrice", "load_cost_table"]

_MILLION = Decimal(1_000_000)


class ModelPrice(BaseModel):
    """One model's prices per million tokens.

    Attributes:
        input_per_million: price of a million prompt tokens.
        output_per_million: price of a million completion tokens.
        currency: ISO code of the prices' currency.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    input_per_million: Decimal = Field(ge=0)
    output_per_million: Decimal = Field(ge=0)
    currency: str = Field(default="USD", min_length=3, max_length=3)

    @field_validator("input_per_million", "output_per_million", mode="before")
    @classmethod
    def _no_binary_float(cls, value: object) -> object:
        # YAML reads 0.15 as a float; its shortest repr is the digits the user wrote.
        return repr(value) if isinstance(value, float) else value


class CostTable(RootModel[dict[str, ModelPrice]]):
    """Prices by model name."""

    def price(self, model: str) -> ModelPrice | None:
        """The prices of ``model``, or ``None`` when the table does not list it."""
        return self.root.get(model)

    def cost(self, model: str, *, prompt_tokens: int, completion_tokens: int) -> Money | None:
        """What ``prompt_tokens`` and ``completion_tokens`` of ``model`` cost, unrounded.

        Returns ``None`` when the table does not list ``model``.
        """
        price = self.price(model)
        if price is None:
            return None
        amount = (price.input_per_million * prompt_tokens
                  + price.output_per_million * completion_tokens) / _MILLION
        return Money(amount=amount, currency=price.currency)


def load_cost_table(path: Path) -> CostTable:
    """Read a cost table from a YAML or JSON file.

    Raises:
        LlmConfigError: the file is missing, not YAML/JSON, or an entry is invalid
            (naming the model and the field).
    """
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise LlmConfigError(f"cannot read cost table path={str(path)!r}: {exc.strerror}; "
                             "give an existing YAML or JSON file", field="cost_table") from exc
    try:
        data: object = (json.loads(text) if path.suffix == ".json" else yaml.safe_load(text))
    except (json.JSONDecodeError, yaml.YAMLError) as exc:
        raise LlmConfigError(f"cost table path={str(path)!r} is not valid "
                             f"{'JSON' if path.suffix == '.json' else 'YAML'}: {exc}; fix "
                             "the file", field="cost_table") from exc
    try:
        return CostTable.model_validate(data if data is not None else {})
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"])
        raise LlmConfigError(f"cost table path={str(path)!r} entry {where!r} is invalid: "
                             f"{first['msg']}; write {{MODEL: {{input_per_million: X, "
                             "output_per_million: Y}}}", field="cost_table") from exc
