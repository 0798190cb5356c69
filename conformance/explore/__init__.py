"""Exploration beyond the corpus: differential play (fuzz), perft counts, winnable-deal claims."""
