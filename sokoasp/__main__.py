from sokoasp.cli import main

main()
