"""Built-in Praga bots (placeholder; replaced below)."""

from engine.core.bots import Bot


class ClimberBot(Bot):
    name = "climber"

    def choose(self, observation, kind, options):
        return 0


class BuilderBot(Bot):
    name = "builder"

    def choose(self, observation, kind, options):
        return 0
