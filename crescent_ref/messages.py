"""The player-facing message of each reason code, in English, Indonesian or Chinese (spec/reasons.yaml)."""

from __future__ import annotations

from crescent_ref.errors import NotationError
from crescent_ref.spec_files import load_yaml

LANGUAGES = ("en", "id", "zh")


def message(code: str, lang: str = "en") -> str:
    """The message for reason ``code`` in ``lang``; NotationError for an unknown code or language."""
    if lang not in LANGUAGES:
        raise NotationError("language", lang, f"expected one of {', '.join(LANGUAGES)}")
    for entry in load_yaml("reasons.yaml")["reasons"]:
        if entry["code"] == code:
            return str(entry[lang])
    raise NotationError("reason code", code, "not listed in spec/reasons.yaml")


def reason_codes() -> list[str]:
    """Every reason code, in the order of spec/reasons.yaml."""
    return [str(entry["code"]) for entry in load_yaml("reasons.yaml")["reasons"]]
