"""``python -m tarockrl`` runs the ``tarockrl`` command."""

import sys

from tarockrl.cli import main

if __name__ == "__main__":
    sys.exit(main())
