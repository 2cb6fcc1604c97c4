"""The Kingdomino variants that agent tests play: every player count, both 3-player rules, the Mighty Duel, the
bonuses and quests (fixed and random)."""

from kingdomino_env.rules import Rules

KINGDOMINO_VARIANTS = {
    "2p": Rules(2),
    "3p": Rules(3),
    "3p-36": Rules(3, three_player_36=True),
    "4p": Rules(4),
    "mighty-duel": Rules(2, mighty_duel=True),
    "bonuses": Rules(4, harmony=True, middle_kingdom=True),
    "quests": Rules(3, quests=("lost_corner", "bleak_king")),
    "random-quests": Rules(2, mighty_duel=True, random_quests=2),
}
