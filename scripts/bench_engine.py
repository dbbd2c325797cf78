#!/usr/bin/env python
"""Engine benchmark: random full deals per second (batch driver), API steps per second, start-up times.

Usage: python scripts/bench_engine.py [--game dreierles] [--deals 200000] [--json]
Every figure is printed next to an in-process baseline ratio (see tarockrl.bench).
"""

import sys

from tarockrl.bench import main

if __name__ == "__main__":
    sys.exit(main())
