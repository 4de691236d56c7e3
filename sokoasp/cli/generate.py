"""``sokoasp generate RECIPE --out FOLDER``."""

from __future__ import annotations

from pathlib import Path

import click

from sokoasp.errors import InputError
from sokoasp.tools.generate.recipe import build, check_out_folder, read_recipe, write_portfolio


@click.command()
@click.argument("recipe_file", type=click.Path(path_type=Path))
@click.option("--out", type=click.Path(path_type=Path), required=True, help="Folder for the portfolio.")
@click.option("--force", is_flag=True, help="Write into a folder that holds other files (same-named files are replaced).")
def generate(recipe_file: Path, out: Path, force: bool) -> None:
    """Build a level portfolio from a TOML recipe (see generators/thesis.toml).

    Each level is solvable by construction (boxes pulled away from their goals; the
    construction plan is replayed), written as XSB (.sok) and thesis facts (.lp), and listed
    in manifest.csv. The same recipe rebuilds the same files byte for byte. FOLDER must be
    new, empty, or this recipe's earlier output (else --force).
    """
    recipe = read_recipe(recipe_file)
    if not force:
        check_out_folder(out, recipe_file)  # before the work, not after it
    try:
        made = build(recipe)
    except InputError as error:  # a class that cannot be made: the recipe says so
        raise error.at(str(recipe_file)) from None
    written = write_portfolio(made, recipe, recipe_file, out, force)
    click.echo(f"wrote {len(made)} levels ({len(written)} files) to {out}")
