"""Uploaded games: an organiser's archive read and checked, its referee run, the conformance kit."""
