"""Game logs (spec/game-log.md): reading them, replaying them on the reference, reporting, converting."""
