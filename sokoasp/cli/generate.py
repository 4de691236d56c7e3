"""``sokoasp generate RECIPE --out FOLDER``."""

from __future__ import annotations

from pathlib import Path

import click

from sokoasp.tools.generate.recipe import build, read_recipe, write_portfolio


@click.command()
@click.argument("recipe_file", type=click.Path(path_type=Path))
@click.option("--out", type=click.Path(path_type=Path), required=True, help="Folder for the portfolio.")
def generate(recipe_file: Path, out: Path) -> None:
    """Build a level portfolio from a TOML recipe (see generators/thesis.toml).

    Each level is solvable by construction (boxes pulled away from their goals; the
    construction plan is replayed), written as XSB (.sok) and thesis facts (.lp), and listed
    in manifest.csv. The same recipe rebuilds the same files byte for byte.
    """
    recipe = read_recipe(recipe_file)
    made = build(recipe)
    written = write_portfolio(made, recipe, recipe_file, out)
    click.echo(f"wrote {len(made)} levels ({len(written)} files) to {out}")
