"""What ui/ words and draws as Rich text, without Textual: a claim's or a device's description,
the selector previews and the allocator's explanations, DRA feature lines, warning flags, node
health. Panes and screens show what these make; an import-linter contract keeps Textual (and
the rest of ui/) out of here, so every word can be tested and reused without an App."""
