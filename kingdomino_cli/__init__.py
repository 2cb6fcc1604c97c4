"""The `kingdomino` command line (a Typer app, `kingdomino_cli.main:app`)."""
