"""The subcommands of ``crescent-ref``, one module each (``configure(parser)`` and ``run(args)``).

crescent_ref.cli imports a module only when its subcommand is asked for, so ``crescent-ref serve``
starts without argparse, the table drawing or the solver.
"""
