"""Rendering of core states: `text` (the ANSI table), `pygame_drawing` (pictures and the live viewer; needs pygame)
and `frames` (what an env's render() returns for each render mode)."""
