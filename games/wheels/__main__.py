import sys

from games.wheels.cli import main

sys.exit(main())
