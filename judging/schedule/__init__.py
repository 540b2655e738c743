"""Who plays whom and when: the tournament formats, Swiss pairing, versus batches, test games, system tests, an entry's plans."""
