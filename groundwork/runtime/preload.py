"""Importing this module switches the compiled rules engine on (`compiled.activate`) in a process
that starts by importing a list of modules rather than by running our code: the batch workers'
fork server preloads it before a stage's module, and a Dask worker takes it as `--preload`.
It is the one module whose import does something, and that is all it does."""

from groundwork.runtime.compiled import activate

activate()
