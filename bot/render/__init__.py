"""Pictures drawn with Pillow: rating charts (and, later, boards)."""
