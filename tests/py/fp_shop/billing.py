from __future__ import annotations

from decimal import Decimal


class CardDeclined(Exception):
    pass


def _authorise(customer: str, amount: Decimal, took_ms: int, ref: int, why: str) -> None:
    raise CardDeclined(
        f"customer {customer} declined: amount {amount} EUR over limit 500.00 after {took_ms}ms "
        f"(gateway ref 0x{ref:08x}, reason '{why}')"
    )


def charge(customer: str, amount: Decimal, took_ms: int, ref: int, why: str) -> None:
    _authorise(customer, amount, took_ms, ref, why)
