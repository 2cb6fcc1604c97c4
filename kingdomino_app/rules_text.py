"""The Rules screen's text: a summary of the official rulebooks (Kingdomino, then Queendomino and the Royal Wedding),
in sections of (heading, paragraphs)."""

from __future__ import annotations

RULES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("The goal", (
        "Each player builds a kingdom of dominoes around their castle. Every domino has two squares of "
        "landscape: wheat field, forest, lake, grassland, swamp or mine, some with crowns. At the end, each "
        "territory scores its number of squares times its number of crowns; the highest total wins.",
    )),
    ("Setting up", (
        "Every player starts with a castle on a single starting square. The dominoes are shuffled face down. "
        "With 4 players all 48 are used and each player has one king. With 3 players all 48 are used too, "
        "lines hold 4 dominoes and the one nobody takes is discarded each round (the older rule used 36 "
        "dominoes in lines of 3). With 2 players, 24 dominoes are removed at random and each player has two "
        "kings.",
        "Dominoes are always laid out in a line sorted by their number, lowest first; the number shows how "
        "valuable the domino is, so the high numbers carry the crowns.",
    )),
    ("The starting round", (
        "The first line is laid out. The kings are drawn at random, one by one; each king in turn claims a "
        "domino of the line by standing on it. Then the next line is laid out beside it.",
    )),
    ("A round", (
        "The kings act in the order of their dominoes in the current line, lowest number first. On its turn, "
        "a king's owner does two things: first adds the domino under the king to their kingdom, then moves "
        "the king onto a free domino of the next line. So taking a strong domino now means acting late in the "
        "next round, with less choice.",
        "When every king has acted, a new line is laid out and the next round begins. In the last round there "
        "is no new line: players only add their last domino. That makes 12 rounds with 3 or 4 players and 6 "
        "rounds with 2 players (who act twice a round, once per king).",
    )),
    ("Adding a domino", (
        "A new domino must touch the kingdom along at least one side: either the castle, which matches any "
        "landscape, or a square of the same landscape as the square of the domino that touches it. Diagonals "
        "do not count.",
        "The whole kingdom must fit in a 5 x 5 square (7 x 7 in the Mighty Duel). The castle does not have to "
        "stay in the middle.",
        "If a domino cannot be added anywhere under these rules, it is discarded and scores nothing. A domino "
        "that can be added must be added.",
        "In this app: the held domino appears over your kingdom. Move it with the arrow keys or the LEFT, UP, "
        "DOWN and RIGHT buttons, turn it with R or ROTATE, and press Enter or Place & Proceed. Squares outlined "
        "in green are where its first square may go in its current rotation; clicking one moves it there. "
        "Discard is offered only when no placement is legal.",
    )),
    ("Scoring", (
        "A territory is a group of squares of the same landscape joined by their sides. Each territory scores "
        "its number of squares multiplied by the number of crowns on it; a territory with no crown scores "
        "nothing. Separate territories of the same landscape score separately.",
        "Example: 6 connected forest squares with 2 crowns score 12 points; 8 lake squares without a crown "
        "score 0.",
    )),
    ("Who wins", (
        "The highest score wins. On a tie, the tied player with the largest territory wins; if still tied, the "
        "one with the most crowns. Players tied on all three share the victory.",
    )),
    ("Variants", (
        "Harmony: 5 more points for a kingdom that fills its whole 5 x 5 square (no gaps, nothing discarded).",
        "Middle Kingdom: 10 more points when the castle ends up exactly in the centre of the kingdom's "
        "square (gaps allowed).",
        "The Mighty Duel: for 2 players, with all 48 dominoes and 7 x 7 kingdoms.",
        "Dynasty: three games in a row; the players' totals over the three games decide (ties broken by the "
        "largest territories, then the crowns, added up over the games).",
        "Quests: 2 of the 17 quest cards are dealt at random each game; each gives bonus points at the end for a "
        "pattern in your kingdom (the documentation's rules page lists them). The Scores screen itemises them.",
    )),
    ("Queendomino", (
        "Queendomino plays like Kingdomino with towns (the red squares), knights, buildings, coins, towers, the "
        "Queen and the Dragon. Kingdoms are 7 x 7 with 2 players (2 kings each) and 5 x 5 with 3 or 4; each "
        "player starts with 1 knight and 7 coins. After placing a domino (not after a discard) a king's turn has "
        "three optional steps, offered only when something is possible, then the pick.",
        "Knights: put a knight on the first or the second square of the domino just placed (at most one each). "
        "Each collects a tax: a coin per square of that territory, plus the tax bonuses of your buildings. In this "
        "app: click a square of the new domino (each square's tax is shown first), then Send knight; Done ends "
        "the step.",
        "Build: once a turn, buy the tile of a Builders' Board slot (slot k costs k coins, 1 less while you host "
        "the Queen) and put it on one of your open town squares. It brings its knights and towers; whoever then "
        "has the most towers (a tie is enough) hosts the Queen. In this app: click a tile (its cost and effects "
        "are shown), then a green town square; Done skips.",
        "The Dragon: once a round for everybody, a player who does not host the Queen may pay 1 coin to burn a "
        "tile of the board. In this app: click a tile, then Send the Dragon, or Done.",
        "Scoring: 1 point per 3 coins; each territory scores squares x crowns (the crowns of its buildings count, "
        "and the Queen adds 1 crown to her host's largest territory); then the buildings' points. Ties are "
        "broken by the largest territory only.",
    )),
    ("The Royal Wedding", (
        "Both boxes together for 3 to 8 players, one king each; the lines alternate boxes (labelled K and Q, "
        "e.g. K12 and Q12), all of Queendomino's rules apply. 3-4 players: 7 x 7 kingdoms, lines of 4. 5-8 "
        "players: 5 x 5 kingdoms, lines of 8.",
        "Teams (6 or 8 players): players 1 and 2 form team 1, 3 and 4 team 2, and so on. Each team shares one "
        "7 x 7 kingdom, one purse and its knights; each player plays their own king on their own turns. The "
        "header names the player to move and their teammate.",
    )),
    ("Saving", (
        "Save & Quit, at any turn, stores the game under a name you choose. Load Game lists the saves with "
        "their date, players and round, and continues a game exactly where it stopped.",
    )),
)

__all__ = ["RULES"]
