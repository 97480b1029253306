"""The dashboard panes; each renders a DraView and never fetches."""
