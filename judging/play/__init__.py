"""Running a game: the referees, a match's claim, play and record, builds, bundles."""
