"""The names of Kardinal's colours, shapes and buildings, marked for translation: the board, the narration, the
refusals and the typed examples (``notation.local_move``) all say them the same way."""
from __future__ import annotations

from rules.lang import N_

COLOUR_NAMES = {"red": N_("red"), "yellow": N_("yellow"), "green": N_("green"), "blue": N_("blue")}
KIND_NAMES = {"house": N_("house"), "tower": N_("tower"), "courtyard": N_("courtyard")}
# a building as a label (``red house``) and as the object of a sentence (``a red house``): adjectives and articles
# follow the noun's gender in other languages, so every pair is a text of its own
BUILDINGS = {("red", "house"): (N_("red house"), N_("a {mark} red house")),
             ("red", "tower"): (N_("red tower"), N_("a {mark} red tower")),
             ("red", "courtyard"): (N_("red courtyard"), N_("a {mark} red courtyard")),
             ("yellow", "house"): (N_("yellow house"), N_("a {mark} yellow house")),
             ("yellow", "tower"): (N_("yellow tower"), N_("a {mark} yellow tower")),
             ("yellow", "courtyard"): (N_("yellow courtyard"), N_("a {mark} yellow courtyard")),
             ("green", "house"): (N_("green house"), N_("a {mark} green house")),
             ("green", "tower"): (N_("green tower"), N_("a {mark} green tower")),
             ("green", "courtyard"): (N_("green courtyard"), N_("a {mark} green courtyard")),
             ("blue", "house"): (N_("blue house"), N_("a {mark} blue house")),
             ("blue", "tower"): (N_("blue tower"), N_("a {mark} blue tower")),
             ("blue", "courtyard"): (N_("blue courtyard"), N_("a {mark} blue courtyard"))}
