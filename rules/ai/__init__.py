"""AI players that use only the engine contract: random, greedy (one ply) and strong (ISMCTS)."""
from rules.ai.levels import LEVELS, make_player
from rules.ai.names import ai_name
from rules.ai.players import GreedyPlayer, Player, RandomPlayer
from rules.ai.strong import Advice, StrongPlayer, advise
from rules.ai.worker import hint, think

__all__ = ["LEVELS", "Advice", "GreedyPlayer", "Player", "RandomPlayer", "StrongPlayer", "advise", "ai_name",
           "hint", "make_player", "think"]
