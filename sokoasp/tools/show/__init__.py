"""Seeing levels and plans: frames from a replay, pictures, animations, text, HTML."""
