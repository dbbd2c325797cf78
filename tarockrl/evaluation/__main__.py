"""``python -m tarockrl.evaluation --write``: regenerate the shipped board sets (see :mod:`.boards`)."""

from tarockrl.evaluation.boards import main

raise SystemExit(main())
