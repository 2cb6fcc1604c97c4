"""The app's screens, one concern each: menu, new game, dominoes, play (draft and placement), save, load,
scores, rules. Screens navigate through the `App` (`app.show_...`), never by importing each other."""
