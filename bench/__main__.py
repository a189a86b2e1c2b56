"""``python -m bench``: engine playouts per game, then the service on a SQLite file."""
from __future__ import annotations

import sys

from bench import engines, pictures, service


def main() -> None:
    quick = "--quick" in sys.argv
    print("== Engines: greedy playouts ==")
    engines.main(["--seconds", "1" if quick else "3"])
    print()
    print("== Board pictures: draw + encode one PNG ==")
    pictures.main(["--states", "10" if quick else "30"])
    print()
    print("== Service: 100 concurrent games on SQLite ==")
    service.main(["--games", "20" if quick else "100"])


if __name__ == "__main__":
    main()
