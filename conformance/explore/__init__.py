"""Exploration beyond the corpus: differential play (fuzz) and perft counts."""
