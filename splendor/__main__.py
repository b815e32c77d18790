"""``python -m splendor`` runs the ``splendor`` command."""

from splendor.cli import main

main()
