"""Screens: the dashboard and the modals it opens (text view, help)."""
