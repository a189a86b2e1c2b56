"""``python -m bench``: engine playouts per game, then the service on a SQLite file; ``--strength`` adds a short
run of the strong AI against greedy (``python -m bench.strength`` for the full 200 games per configuration)."""
from __future__ import annotations

import sys

from bench import engines, pictures, service, strength


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
    if "--strength" in sys.argv:
        print()
        print("== Strong AI against greedy (40 iterations a decision) ==")
        strength.main(["--games", "10" if quick else "40", "--iterations", "40"])


if __name__ == "__main__":
    main()
