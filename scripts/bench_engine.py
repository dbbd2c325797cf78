#!/usr/bin/env python
"""Engine benchmark: random full deals per second (batch driver), API steps per second, start-up times.

Usage: python scripts/bench_engine.py [--game dreierles] [--deals 200000] [--seconds 1] [--json] [--vs-openspiel]
       [--pairs 9]

``--vs-openspiel`` (needs ``pip install "tarockrl[bench]"``) also times OpenSpiel's C++ Slovenian tarok on
full-length random games (all pass, 48 card plays) in the same process and prints each game's ratio: ``--pairs``
pairs of adjacent windows of ``--seconds`` (ours, then OpenSpiel's, the order alternating), both on one thread and
per CPU second of the process; the ratio is the median of the pairs' ratios (lowest and highest pair printed too).
Every figure is printed next to an in-process baseline ratio (see tarockrl.bench).
"""

import sys

from tarockrl.bench import main

if __name__ == "__main__":
    sys.exit(main())
