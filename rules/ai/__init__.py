"""AI players that use only the engine contract."""
from rules.ai.players import GreedyPlayer, Player, RandomPlayer, make_player

__all__ = ["GreedyPlayer", "Player", "RandomPlayer", "make_player"]
