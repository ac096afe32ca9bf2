"""`python3 -m typeinf …` runs the `typeinf` command, for when its script is not on the PATH."""

import sys

from typeinf.frontends.cli import main

sys.exit(main())
