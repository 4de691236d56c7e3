"""An example sokoasp plugin: the entry points of pyproject.toml name what this package adds."""

from pathlib import Path

HERE = Path(__file__).resolve().parent
FAMILY = str(HERE / "incremental-ntb.lp")  # an encoding family: the path of its file
CORNER = str(HERE / "corner")  # a strategy: the path of its folder, one .lp per family
