"""Instance generators: board shapes, solvable-by-construction placement, recipes."""
