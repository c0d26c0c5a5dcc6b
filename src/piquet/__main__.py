import sys

from piquet.cli import main

sys.exit(main())
